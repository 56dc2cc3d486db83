package dev.shoal;

import static dev.shoal.OrmHibernate.bookByIsbn;
import static dev.shoal.OrmHibernate.expect;
import static dev.shoal.OrmHibernate.inTransaction;
import static dev.shoal.OrmHibernate.print;
import static dev.shoal.OrmHibernate.sha256;
import static dev.shoal.OrmHibernate.step;

import dev.shoal.orm.Author;
import dev.shoal.orm.Book;
import dev.shoal.orm.Genre;
import dev.shoal.orm.Tag;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Tuple;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Join;
import jakarta.persistence.criteria.JoinType;
import jakarta.persistence.criteria.Root;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The application's reads over the second release's rows: find and lazy loading, JPQL (joins,
 * fetch joins, aggregates, GROUP BY / HAVING, subqueries, functions, pagination), Criteria
 * queries and native SQL. Each prints what it read back.
 */
final class Queries {
  private Queries() {}

  static void run(EntityManagerFactory emf) {
    step("find by id, lazy associations, the long text");
    inTransaction(emf, em -> {
      Long id = bookByIsbn(em, "978-0-00-000002-8").getId();
      em.clear();
      Book b = em.find(Book.class, id);
      print("find", b.getTitle() + " | " + b.getIsbn() + " | " + b.getPrice() + " | "
          + b.getGenre() + " | " + b.getPublished() + " | in print " + b.isInPrint()
          + " | edition " + b.getEdition() + " | version " + b.getVersion());
      print("find lazy", "author " + b.getAuthor().getName() + ", joined "
          + b.getAuthor().getJoined() + "; publisher " + b.getPublisher().getName() + " ("
          + b.getPublisher().getCountry() + "); tags " + names(b.getTags()) + "; "
          + b.getReviews().size() + " reviews");
      String summary = b.getSummary();
      expect(summary.equals(OrmHibernate.longSummary()), "the long summary read back whole");
      print("find lob", summary.length() + " chars, sha256 " + sha256(summary));
    });

    step("JPQL: every row");
    inTransaction(emf, em -> {
      for (Author a : em.createQuery("select a from Author a order by a.name", Author.class)
          .getResultList()) {
        print("author", a.getName() + " | " + a.getEmail() + " | " + a.getJoined() + " | version "
            + a.getVersion() + " | " + a.getBooks().size() + " books");
      }
      for (Book b : em.createQuery("select b from Book b order by b.title", Book.class)
          .getResultList()) {
        print("book", b.getTitle() + " | " + b.getPrice() + " | " + b.getGenre() + " | "
            + b.getPublished() + " | in print " + b.isInPrint() + " | edition "
            + b.getEdition() + " | version " + b.getVersion());
      }
    });

    step("JPQL: joins and fetch joins");
    inTransaction(emf, em -> {
      print("join", rows(em.createQuery("select b.title, a.name from Book b join b.author a"
          + " where a.name like :p order by b.title", Object[].class)
          .setParameter("p", "%o%").getResultList()));
      List<Author> authors = em.createQuery("select distinct a from Author a"
          + " left join fetch a.books order by a.name", Author.class).getResultList();
      print("fetch join", authors.stream()
          .map(a -> a.getName() + " -> " + a.getBooks().stream().map(Book::getTitle)
              .collect(Collectors.joining(", ")))
          .collect(Collectors.joining("; ")));
      print("join three", rows(em.createQuery("select p.name, t.name, count(b) from Book b"
          + " join b.publisher p join b.tags t group by p.name, t.name order by p.name, t.name",
          Object[].class).getResultList()));
      print("left join", rows(em.createQuery("select b.title, r.rating from Book b left join"
          + " b.reviews r where b.genre <> :g order by b.title, r.rating", Object[].class)
          .setParameter("g", Genre.SCIENCE).getResultList()));
    });

    step("JPQL: aggregates, GROUP BY, HAVING, ORDER BY of an ENUM");
    inTransaction(emf, em -> {
      print("group by author", rows(em.createQuery("select a.name, count(b), sum(b.price),"
          + " min(b.price), max(b.published) from Author a join a.books b group by a.name"
          + " having count(b) > 1 order by sum(b.price) desc", Object[].class).getResultList()));
      Double avg = em.createQuery("select avg(b.price) from Book b", Double.class)
          .getSingleResult();
      print("avg price", String.format("%.4f", avg));
      print("group by genre", rows(em.createQuery("select b.genre, count(b) from Book b"
          + " group by b.genre order by b.genre", Object[].class).getResultList()));
      print("order by genre desc", rows(em.createQuery("select b.title from Book b"
          + " order by b.genre desc, b.title", Object[].class).getResultList()));
      print("group by tag", rows(em.createQuery("select t.name, count(b) from Tag t"
          + " left join t.books b group by t.name order by count(b) desc, t.name",
          Object[].class).getResultList()));
      print("review stats", rows(em.createQuery("select r.book.title, count(r), avg(r.rating),"
          + " max(r.written) from Review r group by r.book.title order by r.book.title",
          Object[].class).getResultList()));
      Tag classic = em.createQuery("select t from Tag t where t.name = 'classic'", Tag.class)
          .getSingleResult();
      print("member of, size", rows(em.createQuery("select b.title, size(b.tags) from Book b"
          + " where :tag member of b.tags order by size(b.tags) desc, b.title", Object[].class)
          .setParameter("tag", classic).getResultList()));
    });

    step("JPQL: subqueries");
    inTransaction(emf, em -> {
      print("exists", em.createQuery("select a.name from Author a where exists (select 1 from"
          + " Book b where b.author = a and b.price > 14) order by a.name", String.class)
          .getResultList());
      print("above average", em.createQuery("select b.title from Book b where b.price >"
          + " (select avg(b2.price) from Book b2) order by b.title", String.class)
          .getResultList());
      print("best review", rows(em.createQuery("select r.book.title, r.rating, r.body"
          + " from Review r where r.rating = (select max(r2.rating) from Review r2"
          + " where r2.book = r.book) order by r.book.title", Object[].class).getResultList()));
      print("not in", em.createQuery("select t.name from Tag t where t.id not in (select"
          + " t2.id from Book b join b.tags t2 where b.genre = :g) order by t.name", String.class)
          .setParameter("g", Genre.NOVEL).getResultList());
    });

    step("JPQL: functions");
    inTransaction(emf, em -> {
      print("string functions", rows(em.createQuery("select upper(a.name), lower(a.name),"
          + " length(a.name), substring(a.name, 1, 3), locate('a', a.name),"
          + " coalesce(a.email, '-'), concat(a.name, ' <', coalesce(a.email, '?'), '>')"
          + " from Author a order by a.name", Object[].class).getResultList()));
      print("trim", rows(em.createQuery("select concat('[', trim(concat('  ', a.name, '  ')), ']'),"
          + " trim(leading '9' from b.isbn), trim(trailing 's' from b.title) from Book b"
          + " join b.author a where a.name like 'C%' order by b.title", Object[].class)
          .getResultList()));
      print("date functions", rows(em.createQuery("select a.name, year(a.joined),"
          + " month(a.joined), day(a.joined), hour(a.joined), minute(a.joined)"
          + " from Author a order by a.name", Object[].class).getResultList()));
      print("seconds", rows(em.createQuery("select a.name, second(a.joined) from Author a"
          + " order by a.name", Object[].class).getResultList()));
      print("numeric functions", rows(em.createQuery("select b.title, round(b.price * 1.1, 2),"
          + " abs(b.price - 12), mod(cast(b.price as Integer), 3), floor(b.price),"
          + " ceiling(b.price), b.price / 4 from Book b order by b.title", Object[].class)
          .getResultList()));
      print("case", rows(em.createQuery("select b.title, case when b.price >= 14 then 'dear'"
          + " when b.price >= 10 then 'fair' else 'cheap' end from Book b order by b.title",
          Object[].class).getResultList()));
      print("published before 1950", em.createQuery("select b.title from Book b"
          + " where b.published < :t order by b.published", String.class)
          .setParameter("t", Instant.parse("1950-01-01T00:00:00Z")).getResultList());
      print("not in print", em.createQuery("select b.title from Book b where b.inPrint = false"
          + " order by b.title", String.class).getResultList());
      print("case-insensitive like", em.createQuery("select b.title from Book b"
          + " where lower(b.title) like :p order by b.title", String.class)
          .setParameter("p", "%the%").getResultList());
      // Through the unique key on name, which compares as its column's collation does.
      print("by name, any case", em.createQuery("select a.name from Author a"
          + " where a.name = :n", String.class).setParameter("n", "ada lovelace").getResultList());
    });

    step("pagination: setFirstResult / setMaxResults");
    inTransaction(emf, em -> {
      String jpql = "select b.title from Book b order by b.price desc, b.title";
      print("page 1", em.createQuery(jpql, String.class).setMaxResults(3).getResultList());
      print("page 2", em.createQuery(jpql, String.class)
          .setFirstResult(3).setMaxResults(3).getResultList());
      print("page 3", em.createQuery(jpql, String.class)
          .setFirstResult(6).setMaxResults(3).getResultList());
      print("page of a join", rows(em.createQuery("select b.title, t.name from Book b"
          + " join b.tags t order by t.name, b.title", Object[].class)
          .setFirstResult(2).setMaxResults(4).getResultList()));
    });

    criteria(emf);
    nativeQueries(emf);
  }

  private static void criteria(EntityManagerFactory emf) {
    step("Criteria API");
    inTransaction(emf, em -> {
      CriteriaBuilder cb = em.getCriteriaBuilder();
      CriteriaQuery<Book> q = cb.createQuery(Book.class);
      Root<Book> b = q.from(Book.class);
      Join<Book, Author> a = b.join("author");
      q.select(b).where(
          cb.between(b.get("price"), new BigDecimal("9"), new BigDecimal("16")),
          b.get("genre").in(Genre.NOVEL, Genre.POETRY),
          cb.like(cb.lower(a.get("name")), "%o%"))
          .orderBy(cb.desc(b.get("price")), cb.asc(b.get("title")));
      print("criteria", em.createQuery(q).getResultList().stream()
          .map(x -> x.getTitle() + " " + x.getPrice()).collect(Collectors.toList()));

      CriteriaQuery<Tuple> t = cb.createTupleQuery();
      Root<Book> tb = t.from(Book.class);
      Join<Book, Tag> tag = tb.join("tags", JoinType.LEFT);
      t.select(cb.tuple(tb.get("genre"), cb.countDistinct(tb), cb.count(tag)))
          .groupBy(tb.get("genre"))
          .having(cb.ge(cb.count(tag), 2))
          .orderBy(cb.asc(tb.get("genre")));
      print("criteria group by", em.createQuery(t).getResultList().stream()
          .map(r -> r.get(0) + " " + r.get(1) + " " + r.get(2)).collect(Collectors.toList()));

      CriteriaQuery<Long> c = cb.createQuery(Long.class);
      Root<Book> cr = c.from(Book.class);
      c.select(cb.count(cr)).where(cb.or(cb.isNull(cr.get("summary")),
          cb.greaterThan(cr.get("edition"), 1)));
      print("criteria count", em.createQuery(c).getSingleResult());
    });
  }

  private static void nativeQueries(EntityManagerFactory emf) {
    step("native queries");
    inTransaction(emf, em -> {
      List<?> byGenre = em.createNativeQuery("select genre, count(*), sum(price) from book"
          + " group by genre order by genre").getResultList();
      print("native group by", rows(byGenre));
      print("native types", Arrays.stream((Object[]) byGenre.get(0))
          .map(v -> v.getClass().getSimpleName()).collect(Collectors.toList()));
      print("native join", em.createNativeQuery("select b.title from book b"
          + " join book_tag bt on bt.book_id = b.id join tag t on t.id = bt.tag_id"
          + " where t.name = ? order by b.title").setParameter(1, "classic").getResultList());
      List<?> books = em.createNativeQuery("select * from book where isbn = ?", Book.class)
          .setParameter(1, "978-0-00-000004-2").getResultList();
      print("native entity", books.stream()
          .map(x -> ((Book) x).getTitle() + " " + ((Book) x).getPrice()).toList());
    });
  }

  static String names(Collection<Tag> tags) {
    return tags.stream().map(Tag::getName).sorted().collect(Collectors.joining(", "));
  }

  /** Rows of a multi-column result as "a | b; c | d". */
  static String rows(List<?> rows) {
    List<String> out = new ArrayList<>();
    for (Object row : rows) {
      if (row instanceof Object[] cols) {
        out.add(Arrays.stream(cols).map(Queries::value).collect(Collectors.joining(" | ")));
      } else {
        out.add(value(row));
      }
    }
    return String.join("; ", out);
  }

  private static String value(Object v) {
    if (v instanceof BigDecimal d) return d.toPlainString();
    if (v instanceof Double d) return String.format("%.4f", d);
    return String.valueOf(v);
  }
}
