package dev.shoal.orm;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** New in the model's second version: hbm2ddl=update creates its table and book's FK to it. */
@Entity
@Table(name = "publisher")
public class Publisher {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  @Column(nullable = false, unique = true, length = 100)
  private String name;

  @Column(length = 2)
  private String country;

  protected Publisher() {}

  public Publisher(String name, String country) {
    this.name = name;
    this.country = country;
  }

  public Long getId() { return id; }
  public String getName() { return name; }
  public String getCountry() { return country; }
}
