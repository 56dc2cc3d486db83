package dev.shoal.orm;

/** A book's genre, stored by name: on MySQL, Hibernate makes the column an ENUM of the names. */
public enum Genre {
  NOVEL,
  POETRY,
  SCIENCE,
  HISTORY
}
