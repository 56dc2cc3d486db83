package dev.shoal;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One scripted JDBC session against a MySQL server through Connector/J, the way applications
 * use it; exits non-zero on any surprise. Used by the integration tests against a Shoal router.
 *
 * <p>Usage: ShoalClient jdbc-url user password [--bad-password]
 *
 * <p>or: ShoalClient types jdbc-url user password table (every column type; see TypesCheck)
 */
public final class ShoalClient {
  private static void check(boolean ok, String what) {
    if (!ok) {
      System.err.println("FAIL: " + what);
      System.exit(1);
    }
  }

  private static long selectLong(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      check(rs.next(), sql + ": no row");
      return rs.getLong(1);
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("types")) {
      System.exit(TypesCheck.run(java.util.Arrays.copyOfRange(args, 1, args.length)));
    }
    String url = args[0];
    String user = args[1];
    String password = args[2];
    boolean expectRefusal = args.length > 3 && args[3].equals("--bad-password");
    if (expectRefusal) {
      try (Connection c = DriverManager.getConnection(url, user, password)) {
        check(false, "login with a wrong password succeeded");
      } catch (SQLException e) {
        check(e.getErrorCode() == 1045, "expected 1045, got " + e.getErrorCode() + " " + e);
        System.out.println("refused: " + e.getMessage());
      }
      return;
    }
    try (Connection c = DriverManager.getConnection(url, user, password);
        Statement st = c.createStatement()) {
      check(c.isValid(5), "isValid");
      check(selectLong(st, "SELECT 1") == 1, "SELECT 1");
      try (PreparedStatement ps = c.prepareStatement("SELECT ? + 1")) {
        ps.setInt(1, 41);
        try (ResultSet rs = ps.executeQuery()) {
          check(rs.next() && rs.getLong(1) == 42, "SELECT ? + 1");
        }
      }
      try (ResultSet rs = st.executeQuery("SELECT @@version")) {
        check(rs.next() && rs.getString(1).startsWith("8.0."), "SELECT @@version");
        System.out.println("ok: version " + rs.getString(1));
      }
      st.execute("SET NAMES utf8mb4");
      c.setAutoCommit(false);
      c.commit();
      c.setAutoCommit(true);
      try {
        st.execute("SELEKT 1");
        check(false, "a syntax error went unnoticed");
      } catch (SQLException e) {
        check(e.getErrorCode() == 1064, "expected 1064, got " + e.getErrorCode());
      }
      check(selectLong(st, "SELECT 2") == 2, "the connection survives an error");
      if (url.contains("allowMultiQueries=true")) {
        check(st.execute("SELECT 1; SELECT 'two'"), "multi-statement: first result");
        try (ResultSet rs = st.getResultSet()) {
          check(rs.next() && rs.getLong(1) == 1, "multi-statement: first result set");
        }
        check(st.getMoreResults(), "multi-statement: second result");
        try (ResultSet rs = st.getResultSet()) {
          check(rs.next() && rs.getString(1).equals("two"), "multi-statement: second result set");
        }
      }
      checkMetaData(c, st);
    }
  }

  /**
   * DatabaseMetaData, as Java tools (DBeaver, IDEs, Hibernate's schema validation) list a
   * schema: getTables and getColumns query information_schema with CASE and LIKE.
   */
  private static void checkMetaData(Connection c, Statement st) throws SQLException {
    st.execute("CREATE DATABASE IF NOT EXISTS jdbc_meta");
    st.execute(
        "CREATE TABLE IF NOT EXISTS jdbc_meta.widget (id INT PRIMARY KEY, name VARCHAR(30) NOT"
            + " NULL, price DECIMAL(8,2))");
    java.sql.DatabaseMetaData meta = c.getMetaData();
    boolean found = false;
    try (ResultSet rs = meta.getTables("jdbc_meta", null, "%", new String[] {"TABLE"})) {
      while (rs.next()) {
        found |= rs.getString("TABLE_NAME").equals("widget")
            && rs.getString("TABLE_TYPE").equals("TABLE");
      }
    }
    check(found, "DatabaseMetaData.getTables lists jdbc_meta.widget as a TABLE");
    StringBuilder columns = new StringBuilder();
    try (ResultSet rs = meta.getColumns("jdbc_meta", null, "widget", "%")) {
      while (rs.next()) {
        columns.append(rs.getString("COLUMN_NAME")).append(':').append(rs.getString("TYPE_NAME"))
            .append(':').append(rs.getInt("NULLABLE")).append(' ');
      }
    }
    check(columns.toString().equals("id:INT:0 name:VARCHAR:0 price:DECIMAL:1 "),
        "DatabaseMetaData.getColumns: " + columns);
    try (ResultSet rs = meta.getPrimaryKeys("jdbc_meta", null, "widget")) {
      check(rs.next() && rs.getString("COLUMN_NAME").equals("id"), "getPrimaryKeys");
    }
    System.out.println("ok: DatabaseMetaData lists tables and columns: " + columns);
    st.execute(
        "CREATE TABLE IF NOT EXISTS jdbc_meta.part (id INT PRIMARY KEY, widget_id INT NOT NULL,"
            + " KEY k_widget (widget_id))");
    StringBuilder indexes = new StringBuilder();
    try (ResultSet rs = meta.getIndexInfo("jdbc_meta", null, "part", false, false)) {
      while (rs.next()) {
        indexes.append(rs.getString("INDEX_NAME")).append(':').append(rs.getString("COLUMN_NAME"))
            .append(':').append(rs.getBoolean("NON_UNIQUE")).append(' ');
      }
    }
    check(indexes.toString().equals("PRIMARY:id:false k_widget:widget_id:true "),
        "DatabaseMetaData.getIndexInfo: " + indexes);
    System.out.println("ok: DatabaseMetaData.getIndexInfo: " + indexes);
    checkJoin(c, st);
    st.execute("DROP DATABASE jdbc_meta");
  }

  /** A join with a parameter, prepared (server-side when the URL asks for it) and run twice. */
  private static void checkJoin(Connection c, Statement st) throws SQLException {
    st.execute("INSERT INTO jdbc_meta.widget VALUES (1, 'bolt', 0.25), (2, 'nut', 0.10)");
    st.execute("INSERT INTO jdbc_meta.part VALUES (10, 1), (11, 1), (12, 2)");
    String sql =
        "SELECT w.name, COUNT(p.id) AS parts FROM jdbc_meta.widget w JOIN jdbc_meta.part p"
            + " ON p.widget_id = w.id WHERE w.id = ? GROUP BY w.name";
    StringBuilder seen = new StringBuilder();
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int id = 1; id <= 2; ++id) {
        ps.setInt(1, id);
        try (ResultSet rs = ps.executeQuery()) {
          check(rs.next(), "join: no row for widget " + id);
          check(rs.getMetaData().getColumnLabel(2).equals("parts"), "join: column label");
          seen.append(rs.getString(1)).append('=').append(rs.getLong(2)).append(' ');
          check(!rs.next(), "join: one row per widget");
        }
      }
    }
    check(seen.toString().equals("bolt=2 nut=1 "), "join: " + seen);
    System.out.println("ok: a prepared join: " + seen);
  }
}
