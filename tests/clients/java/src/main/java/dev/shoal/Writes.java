package dev.shoal;

import static dev.shoal.OrmHibernate.authorByName;
import static dev.shoal.OrmHibernate.bookByIsbn;
import static dev.shoal.OrmHibernate.count;
import static dev.shoal.OrmHibernate.expect;
import static dev.shoal.OrmHibernate.inTransaction;
import static dev.shoal.OrmHibernate.print;
import static dev.shoal.OrmHibernate.sqlError;
import static dev.shoal.OrmHibernate.step;

import dev.shoal.orm.Author;
import dev.shoal.orm.Book;
import dev.shoal.orm.Genre;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.LockModeType;
import jakarta.persistence.OptimisticLockException;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.RollbackException;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The application's writes: dirty checking, bulk JPQL UPDATE and DELETE, a pessimistic lock, an
 * optimistic lock conflict between two sessions, a rollback, the database's unique and foreign
 * keys, removal with cascades and orphan removal. Each prints what it read back afterwards.
 */
final class Writes {
  private Writes() {}

  static void run(EntityManagerFactory emf) {
    step("update by dirty checking");
    inTransaction(emf, em -> bookByIsbn(em, "978-0-00-000003-5")
        .setPrice(new BigDecimal("16.40")));
    inTransaction(emf, em -> {
      Book b = bookByIsbn(em, "978-0-00-000003-5");
      print("dirty checking", b.getTitle() + " " + b.getPrice() + ", version " + b.getVersion());
    });

    step("bulk JPQL UPDATE and DELETE");
    inTransaction(emf, em -> {
      // Contact is already out of print: with Connector/J's found rows it still counts.
      int n = em.createQuery("update Book b set b.inPrint = false where b.genre = :g")
          .setParameter("g", Genre.NOVEL).executeUpdate();
      print("bulk update", n + " rows");
      n = em.createQuery("update versioned Book b set b.price = b.price * 1.1"
          + " where b.genre = :g").setParameter("g", Genre.POETRY).executeUpdate();
      print("bulk update versioned", n + " rows");
      n = em.createQuery("delete from Review r where r.rating <= :r")
          .setParameter("r", 2).executeUpdate();
      print("bulk delete", n + " rows");
    });
    inTransaction(emf, em -> print("after bulk", Queries.rows(em.createQuery("select b.title,"
        + " b.price, b.inPrint, b.version from Book b where b.genre in (:g) order by b.title",
        Object[].class).setParameter("g", List.of(Genre.NOVEL, Genre.POETRY)).getResultList())
        + "; " + count(em, "select count(r) from Review r") + " reviews"));

    step("SELECT ... FOR UPDATE");
    inTransaction(emf, em -> {
      Long id = bookByIsbn(em, "978-0-00-000001-1").getId();
      em.clear();
      Book b = em.find(Book.class, id, LockModeType.PESSIMISTIC_WRITE);
      b.setEdition(b.getEdition() + 1);
    });
    inTransaction(emf, em -> {
      List<Book> locked = em.createQuery("select b from Book b where b.genre = :g"
          + " order by b.title", Book.class).setParameter("g", Genre.SCIENCE)
          .setLockMode(LockModeType.PESSIMISTIC_WRITE).getResultList();
      print("pessimistic lock", locked.stream()
          .map(b -> b.getTitle() + " edition " + b.getEdition()).collect(Collectors.toList()));
    });

    optimisticConflict(emf);
    rollback(emf);
    constraints(emf);
    removals(emf);
  }

  /** Two sessions load the same author; the second to commit loses. */
  private static void optimisticConflict(EntityManagerFactory emf) {
    step("optimistic lock conflict");
    try (EntityManager first = emf.createEntityManager();
        EntityManager second = emf.createEntityManager()) {
      first.getTransaction().begin();
      Author mine = authorByName(first, "Carl Sagan");
      second.getTransaction().begin();
      Author theirs = authorByName(second, "Carl Sagan");
      theirs.setEmail("sagan@cornell.example");
      second.getTransaction().commit();
      mine.setEmail("carl@pale-blue-dot.example");
      try {
        first.getTransaction().commit();
        expect(false, "the second commit to fail with an OptimisticLockException");
      } catch (RollbackException e) {
        expect(e.getCause() instanceof OptimisticLockException,
            "an OptimisticLockException under the RollbackException, got " + e.getCause());
        print("optimistic lock", "second commit: " + e.getCause().getClass().getSimpleName());
      }
    }
    inTransaction(emf, em -> {
      Author a = authorByName(em, "Carl Sagan");
      print("optimistic lock kept", a.getEmail() + ", version " + a.getVersion());
    });
  }

  /** Statements sent (flushed) inside a transaction that then rolls back leave nothing. */
  private static void rollback(EntityManagerFactory emf) {
    step("rollback");
    try (EntityManager em = emf.createEntityManager()) {
      em.getTransaction().begin();
      em.persist(new Author("Temporary Author", null, LocalDateTime.parse("2024-01-01T00:00:00")));
      bookByIsbn(em, "978-0-00-000006-6").setPrice(new BigDecimal("1.00"));
      em.createQuery("delete from Review r where r.rating = 5").executeUpdate();
      em.flush();
      em.getTransaction().rollback();
    }
    inTransaction(emf, em -> print("rollback", count(em, "select count(a) from Author a")
        + " authors, Cosmos " + bookByIsbn(em, "978-0-00-000006-6").getPrice() + ", "
        + count(em, "select count(r) from Review r where r.rating = 5") + " five-star reviews"));
  }

  /** The database's own keys, met through the ORM and through native SQL. */
  private static void constraints(EntityManagerFactory emf) {
    step("unique and foreign keys");
    LocalDateTime day = LocalDateTime.parse("2024-01-01T00:00:00");
    print("duplicate name", refusal(emf, em -> em.persist(
        new Author("Ada Lovelace", "other@example.org", day))));
    // A unique key compares as its column's collation does: case-insensitively by default.
    print("duplicate name, other case", refusal(emf, em -> em.persist(
        new Author("ADA LOVELACE", "other@example.org", day))));
    print("duplicate isbn", refusal(emf, em -> {
      Author a = authorByName(em, "Carl Sagan");
      a.addBook(new Book("Cosmos, again", "978-0-00-000006-6", BigDecimal.ONE, Genre.SCIENCE,
          null));
    }));
    print("delete a referenced author", refusal(emf, em -> em.createNativeQuery(
        "delete from author where name = ?").setParameter(1, "Ada Lovelace").executeUpdate()));
    print("insert a dangling reference", refusal(emf, em -> em.createNativeQuery(
        "insert into review (version, book_id, rating, written) values (0, ?, 1, ?)")
        .setParameter(1, 999999).setParameter(2, day).executeUpdate()));
    inTransaction(emf, em -> print("after key errors", count(em, "select count(a) from Author a")
        + " authors, " + count(em, "select count(b) from Book b") + " books"));
  }

  /**
   * Runs `work` and flushes it in a transaction that is then rolled back whatever happens;
   * returns the exception and SQL error the database answered, or "accepted".
   */
  private static String refusal(EntityManagerFactory emf, Consumer<EntityManager> work) {
    try (EntityManager em = emf.createEntityManager()) {
      em.getTransaction().begin();
      try {
        work.accept(em);
        em.flush();
        return "accepted";
      } catch (PersistenceException e) {
        return e.getClass().getSimpleName() + ", error " + sqlError(e);
      } finally {
        em.getTransaction().rollback();
      }
    }
  }

  private static void removals(EntityManagerFactory emf) {
    step("remove with cascades and orphan removal");
    inTransaction(emf, em -> {
      Author sagan = authorByName(em, "Carl Sagan");
      Book contact = sagan.getBooks().stream()
          .filter(b -> b.getTitle().equals("Contact")).findFirst().orElseThrow();
      contact.getTags().forEach(t -> t.getBooks().remove(contact));
      // orphanRemoval deletes the book: its book_tag rows first, its reviews by cascade.
      sagan.getBooks().remove(contact);
    });
    inTransaction(emf, em -> em.remove(authorByName(em, "Ada Lovelace"))); // cascades to books
    inTransaction(emf, em -> {
      Number links = (Number) em.createNativeQuery("select count(*) from book_tag")
          .getSingleResult();
      print("after removals", count(em, "select count(a) from Author a") + " authors, "
          + count(em, "select count(b) from Book b") + " books, "
          + count(em, "select count(r) from Review r") + " reviews, " + links + " book_tag rows");
      print("final books", Queries.rows(em.createQuery("select b.title, a.name, b.price,"
          + " b.version from Book b join b.author a order by b.title", Object[].class)
          .getResultList()));
    });
  }
}
