package dev.shoal;

import dev.shoal.orm.Author;
import dev.shoal.orm.Book;
import dev.shoal.orm.Genre;
import dev.shoal.orm.Publisher;
import dev.shoal.orm.Review;
import dev.shoal.orm.SchemaV1;
import dev.shoal.orm.Tag;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceConfiguration;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.hibernate.Session;

/**
 * Hibernate ORM 7 as a plain JPA application uses it (no container, no persistence.xml), through
 * Connector/J, against one server: Shoal's router or a MySQL/MariaDB server (issue 19).
 *
 * <p>Usage: OrmHibernate jdbc-url user [password] [--dialect=CLASS] [--show-sql]. The URL names
 * an empty database. Hibernate picks its dialect from the server, as it recommends; --dialect
 * sets hibernate.dialect instead: for MariaDB 10.11, which Connector/J takes for MySQL 5.5.5 (the
 * prefix of its handshake version), org.hibernate.dialect.MariaDBDialect. With --show-sql, every
 * statement Hibernate sends goes to stderr.
 *
 * <p>hibernate.hbm2ddl.auto=update creates the first release's schema (SchemaV1: authors, books
 * with an ENUM genre, a long text (@Lob), an Instant, a DECIMAL and a boolean, tags over the join
 * table book_tag; foreign keys, unique keys, an index) on the empty database from what
 * DatabaseMetaData says is there, and that release stores its rows. A second
 * EntityManagerFactory with the second release's model (Author, Book, Tag, Publisher, Review)
 * updates the schema over those rows (ALTER TABLE ADD a column and a foreign key column, CREATE
 * TABLE, foreign keys); a third with the same model should find nothing to do. Then the
 * application: find and lazy loading, JPQL with joins, fetch joins, aggregates, GROUP BY /
 * HAVING, subqueries, functions, pagination (LIMIT/OFFSET), Criteria queries, native queries
 * (Queries); updates by dirty checking, bulk UPDATE and DELETE, SELECT ... FOR UPDATE, an
 * optimistic lock conflict between two sessions, a rollback, the database's unique and foreign
 * keys (1062, 1451, 1452), removal with cascades and orphan removal (Writes).
 *
 * <p>Prints one line per check, "check: what was read back", the same from every MySQL server:
 * no generated ids, no clock readings, no fractions of seconds (Connector/J drops them for a
 * server older than MySQL 5.6.4, which is what it takes MariaDB 10.11 for). The DDL hbm2ddl
 * issued and the schema DatabaseMetaData describes after each update are among the lines. On
 * any error prints "FAIL: step: ..." (the exception chain, SQL error codes included) on stderr
 * and exits 1.
 */
public final class OrmHibernate {
  /** Every statement Hibernate logs (DDL included), collected from the org.hibernate.SQL log. */
  private static final List<String> statements = new ArrayList<>();
  /** Held so that the JUL logger (weakly referenced by its manager) keeps its level. */
  private static final Logger sqlLog = Logger.getLogger("org.hibernate.SQL");

  private static String step = "start";
  private static String url;
  private static String user;
  private static String password = "";
  private static String dialect;

  public static void main(String[] args) {
    // Hibernate's warnings (the SQL errors it met among them) one line each, without traces.
    System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s: %5$s%n");
    List<String> positional = new ArrayList<>();
    boolean showSql = false;
    for (String a : args) {
      if (a.equals("--show-sql")) showSql = true;
      else if (a.startsWith("--dialect=")) dialect = a.substring("--dialect=".length());
      else positional.add(a);
    }
    if (positional.size() < 2 || positional.size() > 3) {
      System.err.println(
          "usage: OrmHibernate jdbc-url user [password] [--dialect=CLASS] [--show-sql]");
      System.exit(2);
    }
    url = positional.get(0);
    user = positional.get(1);
    if (positional.size() == 3) password = positional.get(2);
    captureSql(showSql);
    try {
      run();
    } catch (Throwable t) {
      System.out.flush();
      System.err.println("FAIL: " + step + ": " + describe(t));
      System.exit(1);
    }
  }

  private static void run() throws Exception {
    step("schema v1: hbm2ddl=update on an empty database");
    try (EntityManagerFactory emf = open("v1", SchemaV1.ENTITIES)) {
      printDdl("v1 ddl");
      printSchema(emf, "v1 schema");
      seedV1(emf);
    }
    step("schema v2: hbm2ddl=update over the first release's rows");
    try (EntityManagerFactory emf = open("v2", Model.ENTITIES)) {
      printDdl("v2 ddl");
      printSchema(emf, "v2 schema");
      seedV2(emf);
    }
    step("schema v2 again: hbm2ddl=update finds nothing to do");
    try (EntityManagerFactory emf = open("v2-again", Model.ENTITIES)) {
      printDdl("v2 again ddl");
      Queries.run(emf);
      Writes.run(emf);
    }
    System.out.println("done");
  }

  /** The second release's entities. */
  static final class Model {
    static final Class<?>[] ENTITIES = {
      Author.class, Tag.class, Publisher.class, Book.class, Review.class
    };
  }

  // ---- bootstrap -------------------------------------------------------------------------------

  /** A JPA 3.2 PersistenceConfiguration, as an application without persistence.xml writes it. */
  private static EntityManagerFactory open(String name, Class<?>... entities) {
    statements.clear();
    PersistenceConfiguration config = new PersistenceConfiguration(name);
    for (Class<?> entity : entities) config.managedClass(entity);
    config
        .property(PersistenceConfiguration.JDBC_URL, url)
        .property(PersistenceConfiguration.JDBC_USER, user)
        .property(PersistenceConfiguration.JDBC_PASSWORD, password)
        .property("hibernate.hbm2ddl.auto", "update")
        // A DDL statement the server refuses is an error, not a warning in the log.
        .property("hibernate.hbm2ddl.halt_on_error", "true")
        .property("hibernate.connection.pool_size", "4");
    if (dialect != null) config.property("hibernate.dialect", dialect);
    return config.createEntityManagerFactory();
  }

  private static void captureSql(boolean echo) {
    sqlLog.setLevel(Level.FINE);
    sqlLog.setUseParentHandlers(false);
    sqlLog.addHandler(new Handler() {
      @Override
      public void publish(LogRecord record) {
        String sql = record.getMessage().strip();
        statements.add(sql);
        if (echo) System.err.println("sql: " + sql);
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    });
    // Hibernate's own INFO lines (versions, the built-in pool) say nothing of the server.
    Logger.getLogger("org.hibernate").setLevel(Level.WARNING);
  }

  /**
   * Prints the DDL hbm2ddl issued while the factory was built, in order. MariaDBDialect writes
   * "alter table if exists t" and "drop index if exists i" where MySQLDialect leaves out "if
   * exists": left out here too, so that the two dialects' decisions compare.
   */
  private static void printDdl(String check) {
    List<String> ddl = statements.stream()
        .filter(s -> s.matches("(?is)(create|alter|drop) .*"))
        .map(s -> s.replaceAll("\\s+", " ").replace(" if exists ", " "))
        .collect(Collectors.toList());
    if (ddl.isEmpty()) print(check, "none");
    for (String s : ddl) print(check, s);
  }

  private static void printSchema(EntityManagerFactory emf, String check) {
    inTransaction(emf, em -> em.unwrap(Session.class).doWork(c -> {
      for (String line : SchemaReport.describe(c)) print(check, line);
    }));
  }

  // ---- the first release's rows, then the second's ---------------------------------------------

  /**
   * 30,000 characters of multi-byte text: @Lob is LONGTEXT on MySQL. Shoal holds at most 65,535
   * bytes of any TEXT or BLOB so far (docs/architecture.md), so the text stays under that.
   */
  static String longSummary() {
    StringBuilder s = new StringBuilder();
    for (int i = 0; s.length() < 30_000; i++) {
      s.append("Line ").append(i).append(": el jardín de senderos que se bifurcan \uD83D\uDCDA\n");
    }
    return s.substring(0, 30_000);
  }

  private static void seedV1(EntityManagerFactory emf) {
    step("v1: persist the first release's rows");
    inTransaction(emf, em -> {
      SchemaV1.Author ada = new SchemaV1.Author(
          "Ada Lovelace", "ada@example.org", LocalDateTime.parse("2020-01-15T09:30:00"));
      SchemaV1.Author borges = new SchemaV1.Author(
          "Jorge Luis Borges", null, LocalDateTime.parse("2019-06-01T12:00:00"));
      SchemaV1.Author ws = new SchemaV1.Author(
          "Wisława Szymborska", "ws@example.pl", LocalDateTime.parse("2021-03-08T08:00:00"));
      SchemaV1.Tag classic = new SchemaV1.Tag("classic");
      SchemaV1.Tag fiction = new SchemaV1.Tag("fiction");
      SchemaV1.Tag math = new SchemaV1.Tag("math");
      SchemaV1.Tag poetry = new SchemaV1.Tag("poetry");
      for (Object o : List.of(ada, borges, ws, classic, fiction, math, poetry)) em.persist(o);
      em.persist(new SchemaV1.Book(ada, "Notes on the Analytical Engine", "978-0-00-000001-1",
          new BigDecimal("12.50"), Genre.SCIENCE, Instant.parse("1843-10-01T10:00:00Z"),
          "Sketch of the Analytical Engine")
          .tag(classic, math));
      em.persist(new SchemaV1.Book(borges, "Ficciones", "978-0-00-000002-8",
          new BigDecimal("15.00"), Genre.NOVEL, Instant.parse("1944-06-01T10:00:00Z"),
          longSummary()).tag(classic, fiction));
      em.persist(new SchemaV1.Book(borges, "El Aleph", "978-0-00-000003-5",
          new BigDecimal("14.25"), Genre.NOVEL, Instant.parse("1949-06-15T12:00:00Z"), null)
          .tag(fiction));
      em.persist(new SchemaV1.Book(ws, "Wielka liczba", "978-0-00-000004-2",
          new BigDecimal("9.99"), Genre.POETRY, Instant.parse("1976-05-01T00:00:00Z"),
          "Wiersze").tag(poetry, classic));
      em.persist(new SchemaV1.Book(ws, "Koniec i początek", "978-0-00-000005-9",
          new BigDecimal("11.00"), Genre.POETRY, Instant.parse("1993-05-01T00:00:00Z"), null)
          .tag(poetry));
    });
    inTransaction(emf, em -> print("v1 rows", String.join(", ",
        count(em, "select count(a) from Author a") + " authors",
        count(em, "select count(b) from Book b") + " books",
        count(em, "select count(t) from Tag t") + " tags")));
  }

  private static void seedV2(EntityManagerFactory emf) {
    step("v2: the first release's rows, read through the second release's model");
    inTransaction(emf, em -> {
      Book ficciones = bookByIsbn(em, "978-0-00-000002-8");
      print("v2 reads v1 row", ficciones.getTitle() + " by " + ficciones.getAuthor().getName()
          + ", edition " + ficciones.getEdition() + ", publisher " + ficciones.getPublisher()
          + ", version " + ficciones.getVersion());
    });
    step("v2: persist publishers, a new author, books and reviews; set the new columns");
    inTransaction(emf, em -> {
      Publisher analytical = new Publisher("Analytical Press", "GB");
      Publisher sur = new Publisher("Sur", "AR");
      Publisher czytelnik = new Publisher("Czytelnik", "PL");
      Publisher randomHouse = new Publisher("Random House", null);
      for (Publisher p : List.of(analytical, sur, czytelnik, randomHouse)) em.persist(p);
      for (Book b : em.createQuery("select b from Book b join fetch b.author", Book.class)
          .getResultList()) {
        switch (b.getAuthor().getName()) {
          case "Ada Lovelace" -> b.setPublisher(analytical);
          case "Jorge Luis Borges" -> b.setPublisher(sur);
          default -> b.setPublisher(czytelnik);
        }
        b.setEdition(1);
      }
      Tag science = new Tag("science");
      em.persist(science);
      Author sagan = new Author("Carl Sagan", "carl@example.com",
          LocalDateTime.parse("2022-11-09T17:45:30"));
      Book cosmosBook = new Book("Cosmos", "978-0-00-000006-6", new BigDecimal("19.99"),
          Genre.SCIENCE, Instant.parse("1980-10-12T00:00:00Z"));
      cosmosBook.setPublisher(randomHouse);
      cosmosBook.setEdition(2);
      cosmosBook.addTag(science);
      cosmosBook.addTag(em.createQuery("select t from Tag t where t.name = 'classic'", Tag.class)
          .getSingleResult());
      Book contact = new Book("Contact", "978-0-00-000007-3", new BigDecimal("8.75"),
          Genre.NOVEL, Instant.parse("1985-09-01T00:00:00Z"));
      contact.setPublisher(randomHouse);
      contact.addTag(science);
      contact.setInPrint(false);
      sagan.addBook(cosmosBook);
      sagan.addBook(contact);
      em.persist(sagan); // cascades to both books
      LocalDateTime day = LocalDateTime.parse("2023-04-01T10:00:00");
      Book aleph = bookByIsbn(em, "978-0-00-000003-5");
      Object[][] reviews = {
        {cosmosBook, 5, "A classic."}, {cosmosBook, 4, "Wide."}, {contact, 2, null},
        {contact, 3, "Fine."}, {aleph, 5, "Infinite."}, {aleph, 1, "Too short."},
      };
      for (int i = 0; i < reviews.length; i++) {
        em.persist(new Review((Book) reviews[i][0], (Integer) reviews[i][1],
            (String) reviews[i][2], day.plusDays(i)));
      }
    });
  }

  // ---- helpers shared by Queries and Writes ----------------------------------------------------

  static void step(String name) {
    step = name;
  }

  static void print(String check, Object value) {
    System.out.println(check + ": " + value);
  }

  static void expect(boolean ok, String what) {
    if (!ok) throw new IllegalStateException("expected " + what);
  }

  static long count(EntityManager em, String jpql) {
    return em.createQuery(jpql, Long.class).getSingleResult();
  }

  static Book bookByIsbn(EntityManager em, String isbn) {
    return em.createQuery("select b from Book b where b.isbn = :isbn", Book.class)
        .setParameter("isbn", isbn)
        .getSingleResult();
  }

  static Author authorByName(EntityManager em, String name) {
    return em.createQuery("select a from Author a where a.name = :name", Author.class)
        .setParameter("name", name)
        .getSingleResult();
  }

  /** Runs `work` in a transaction of its own EntityManager; rolls back if it throws. */
  static void inTransaction(EntityManagerFactory emf, Consumer<EntityManager> work) {
    fromTransaction(emf, em -> {
      work.accept(em);
      return null;
    });
  }

  /** Runs `work` in a transaction of its own EntityManager and returns what it returned. */
  static <T> T fromTransaction(EntityManagerFactory emf, Function<EntityManager, T> work) {
    try (EntityManager em = emf.createEntityManager()) {
      em.getTransaction().begin();
      try {
        T result = work.apply(em);
        em.getTransaction().commit();
        return result;
      } finally {
        if (em.getTransaction().isActive()) em.getTransaction().rollback();
      }
    }
  }

  static String sha256(String s) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The SQL error under an exception: "1062 (23000)", or "no SQL error". */
  static String sqlError(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof SQLException e) return e.getErrorCode() + " (" + e.getSQLState() + ")";
    }
    return "no SQL error";
  }

  /** An exception's chain, each with its class and message, and the SQL error. */
  private static String describe(Throwable t) {
    StringBuilder s = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c != t) s.append("\n  caused by ");
      s.append(c.getClass().getName()).append(": ").append(c.getMessage());
      if (c instanceof SQLException e) {
        s.append(" [error ").append(e.getErrorCode()).append(", SQLState ")
            .append(e.getSQLState()).append(']');
      }
    }
    StackTraceElement[] trace = t.getStackTrace();
    for (int i = 0; i < Math.min(trace.length, 8); i++) s.append("\n    at ").append(trace[i]);
    return s.toString();
  }
}
