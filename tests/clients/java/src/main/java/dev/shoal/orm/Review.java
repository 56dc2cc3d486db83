package dev.shoal.orm;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.LocalDateTime;

/** New in the model's second version: a review of a book (a required FK), versioned. */
@Entity
@Table(name = "review")
public class Review {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  @Version private Integer version;

  @ManyToOne(optional = false, fetch = FetchType.LAZY)
  @JoinColumn(name = "book_id")
  private Book book;

  private int rating;

  @Column(length = 2000)
  private String body;

  @Column(nullable = false)
  private LocalDateTime written;

  protected Review() {}

  public Review(Book book, int rating, String body, LocalDateTime written) {
    this.book = book;
    this.rating = rating;
    this.body = body;
    this.written = written;
  }

  public Long getId() { return id; }
  public Book getBook() { return book; }
  public int getRating() { return rating; }
  public String getBody() { return body; }
  public LocalDateTime getWritten() { return written; }
}
