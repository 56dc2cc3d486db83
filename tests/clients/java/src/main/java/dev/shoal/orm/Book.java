package dev.shoal.orm;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.JoinTable;
import jakarta.persistence.Lob;
import jakarta.persistence.ManyToMany;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;
import jakarta.persistence.Version;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A book, the model's second version: its first (SchemaV1.Book) lacks `edition` and the
 * publisher, which hbm2ddl=update adds to the table that already holds rows.
 */
@Entity
@Table(
    name = "book",
    indexes = @Index(name = "idx_book_published", columnList = "published"),
    uniqueConstraints =
        @UniqueConstraint(name = "uk_book_author_title", columnNames = {"author_id", "title"}))
public class Book {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  @Version private long version;

  @Column(nullable = false, length = 200)
  private String title;

  @Column(nullable = false, unique = true, length = 20)
  private String isbn;

  @Column(nullable = false, precision = 10, scale = 2)
  private BigDecimal price;

  @Enumerated(EnumType.STRING)
  @Column(nullable = false)
  private Genre genre;

  @Lob private String summary;

  private Instant published;

  private boolean inPrint;

  @ManyToOne(optional = false, fetch = FetchType.LAZY)
  @JoinColumn(name = "author_id")
  private Author author;

  @ManyToMany
  @JoinTable(
      name = "book_tag",
      joinColumns = @JoinColumn(name = "book_id"),
      inverseJoinColumns = @JoinColumn(name = "tag_id"))
  private Set<Tag> tags = new HashSet<>();

  private Integer edition;

  @ManyToOne(fetch = FetchType.LAZY)
  @JoinColumn(name = "publisher_id")
  private Publisher publisher;

  @OneToMany(mappedBy = "book", cascade = CascadeType.REMOVE)
  private List<Review> reviews = new ArrayList<>();

  protected Book() {}

  public Book(String title, String isbn, BigDecimal price, Genre genre, Instant published) {
    this.title = title;
    this.isbn = isbn;
    this.price = price;
    this.genre = genre;
    this.published = published;
    this.inPrint = true;
  }

  public Long getId() { return id; }
  public long getVersion() { return version; }
  public String getTitle() { return title; }
  public void setTitle(String title) { this.title = title; }
  public String getIsbn() { return isbn; }
  public BigDecimal getPrice() { return price; }
  public void setPrice(BigDecimal price) { this.price = price; }
  public Genre getGenre() { return genre; }
  public String getSummary() { return summary; }
  public void setSummary(String summary) { this.summary = summary; }
  public Instant getPublished() { return published; }
  public boolean isInPrint() { return inPrint; }
  public void setInPrint(boolean inPrint) { this.inPrint = inPrint; }
  public Author getAuthor() { return author; }
  void setAuthor(Author author) { this.author = author; }
  public Set<Tag> getTags() { return tags; }
  public Integer getEdition() { return edition; }
  public void setEdition(Integer edition) { this.edition = edition; }
  public Publisher getPublisher() { return publisher; }
  public void setPublisher(Publisher publisher) { this.publisher = publisher; }
  public List<Review> getReviews() { return reviews; }

  public void addTag(Tag tag) {
    tags.add(tag);
    tag.getBooks().add(this);
  }
}
