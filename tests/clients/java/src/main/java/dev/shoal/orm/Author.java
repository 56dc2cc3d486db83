package dev.shoal.orm;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/** An author: a unique name, an optional e-mail, versioned; owns books (the FK is book's). */
@Entity
@Table(name = "author")
public class Author {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  @Version private int version;

  @Column(nullable = false, unique = true, length = 100)
  private String name;

  @Column(length = 200)
  private String email;

  @Column(nullable = false)
  private LocalDateTime joined;

  @OneToMany(mappedBy = "author", cascade = CascadeType.ALL, orphanRemoval = true)
  @OrderBy("title")
  private List<Book> books = new ArrayList<>();

  protected Author() {}

  public Author(String name, String email, LocalDateTime joined) {
    this.name = name;
    this.email = email;
    this.joined = joined;
  }

  public Long getId() { return id; }
  public int getVersion() { return version; }
  public String getName() { return name; }
  public void setName(String name) { this.name = name; }
  public String getEmail() { return email; }
  public void setEmail(String email) { this.email = email; }
  public LocalDateTime getJoined() { return joined; }
  public List<Book> getBooks() { return books; }

  /** Keeps both sides of the relationship in step, as the owning side is the book. */
  public void addBook(Book book) {
    books.add(book);
    book.setAuthor(this);
  }
}
