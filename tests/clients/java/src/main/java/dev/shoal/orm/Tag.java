package dev.shoal.orm;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToMany;
import jakarta.persistence.Table;
import java.util.HashSet;
import java.util.Set;

/** A tag; books and tags meet in the join table book_tag, which Book owns. */
@Entity
@Table(name = "tag")
public class Tag {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  @Column(nullable = false, unique = true, length = 40)
  private String name;

  @ManyToMany(mappedBy = "tags")
  private Set<Book> books = new HashSet<>();

  protected Tag() {}

  public Tag(String name) { this.name = name; }

  public Long getId() { return id; }
  public String getName() { return name; }
  public Set<Book> getBooks() { return books; }
}
