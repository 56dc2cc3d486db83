package dev.shoal.orm;

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
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;
import jakarta.persistence.Version;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The model as the application's first release had it, on the same tables: authors, books and
 * tags, without the publisher, the book's edition and reviews. hbm2ddl=update creates these
 * tables on an empty database; the second release (Author, Book, Tag, Publisher, Review) then
 * updates them. The columns they share are mapped exactly as in the second release.
 */
public final class SchemaV1 {
  private SchemaV1() {}

  public static final Class<?>[] ENTITIES = {Author.class, Tag.class, Book.class};

  @Entity(name = "Author")
  @Table(name = "author")
  public static class Author {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    Long id;

    @Version int version;

    @Column(nullable = false, unique = true, length = 100)
    String name;

    @Column(length = 200)
    String email;

    @Column(nullable = false)
    LocalDateTime joined;

    protected Author() {}

    public Author(String name, String email, LocalDateTime joined) {
      this.name = name;
      this.email = email;
      this.joined = joined;
    }
  }

  @Entity(name = "Tag")
  @Table(name = "tag")
  public static class Tag {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    Long id;

    @Column(nullable = false, unique = true, length = 40)
    String name;

    protected Tag() {}

    public Tag(String name) { this.name = name; }
  }

  @Entity(name = "Book")
  @Table(
      name = "book",
      indexes = @Index(name = "idx_book_published", columnList = "published"),
      uniqueConstraints =
          @UniqueConstraint(name = "uk_book_author_title", columnNames = {"author_id", "title"}))
  public static class Book {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    Long id;

    @Version long version;

    @Column(nullable = false, length = 200)
    String title;

    @Column(nullable = false, unique = true, length = 20)
    String isbn;

    @Column(nullable = false, precision = 10, scale = 2)
    BigDecimal price;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    Genre genre;

    @Lob String summary;

    Instant published;

    boolean inPrint;

    @ManyToOne(optional = false, fetch = FetchType.LAZY)
    @JoinColumn(name = "author_id")
    Author author;

    @ManyToMany
    @JoinTable(
        name = "book_tag",
        joinColumns = @JoinColumn(name = "book_id"),
        inverseJoinColumns = @JoinColumn(name = "tag_id"))
    Set<Tag> tags = new HashSet<>();

    protected Book() {}

    public Book(Author author, String title, String isbn, BigDecimal price, Genre genre,
        Instant published, String summary) {
      this.author = author;
      this.title = title;
      this.isbn = isbn;
      this.price = price;
      this.genre = genre;
      this.published = published;
      this.summary = summary;
      this.inPrint = true;
    }

    public Book tag(Tag... more) {
      tags.addAll(List.of(more));
      return this;
    }
  }
}
