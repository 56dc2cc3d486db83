package dev.shoal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.TreeMap;

/**
 * Every column type through Connector/J: a table with one column of each type Shoal supports,
 * edge values inserted with bound parameters (client-side or, with useServerPrepStmts=true,
 * server-side prepared statements), read back with getObject (getString for TIME, which a
 * java.sql.Time cannot hold past 24 hours) and compared, Java class included, with what the
 * driver gives against MySQL; typed lookups (an ENUM member, a JSON path), aggregates, UPDATE
 * (SET NULL, col = col + 1, JSON_SET), DELETE, transactions (SQL and the JDBC API) and the
 * errors 1062, 1264, 1265, 1406 and 3140. ENUM, SET and JSON come back as String.
 *
 * <p>Usage: ShoalClient types jdbc-url user password table. The URL names no database (it ends
 * in "/" or has "/?" before its parameters); the client creates and uses "drivers".
 *
 * <p>Prints "ok: check" per passing check and "FAIL: check: ..." on stderr per mismatch; exits
 * 1 if anything failed. The last line on success is "ok: types java mode: N checks".
 */
final class TypesCheck {
  private static final String DATABASE = "drivers";

  /** The same table as the Python and Go clients. */
  private static final String[][] COLUMNS = {
    {"id", "INT NOT NULL PRIMARY KEY"},
    {"ti", "TINYINT"}, {"tiu", "TINYINT UNSIGNED"},
    {"si", "SMALLINT"}, {"siu", "SMALLINT UNSIGNED"},
    {"mi", "MEDIUMINT"}, {"miu", "MEDIUMINT UNSIGNED"},
    {"i", "INT"}, {"iu", "INT UNSIGNED"},
    {"bi", "BIGINT"}, {"biu", "BIGINT UNSIGNED"},
    {"fl", "FLOAT"}, {"db", "DOUBLE"},
    {"de", "DECIMAL(10,2)"}, {"dw", "DECIMAL(65,30)"},
    {"ch", "CHAR(10)"}, {"vc", "VARCHAR(100)"},
    {"bn", "BINARY(4)"}, {"vb", "VARBINARY(16)"},
    {"tx", "TEXT"}, {"mt", "MEDIUMTEXT"}, {"bl", "BLOB"}, {"lb", "LONGBLOB"},
    {"d", "DATE"}, {"tm", "TIME"}, {"tm3", "TIME(3)"},
    {"dt", "DATETIME"}, {"dt6", "DATETIME(6)"},
    {"ts", "TIMESTAMP NULL"}, {"ts6", "TIMESTAMP(6) NULL"},
    {"bo", "BOOL"},
    {"en", "ENUM('small','medium','large')"}, {"st", "SET('red','green','blue')"},
    {"js", "JSON"},
  };

  /**
   * ResultSetMetaData.getColumnTypeName per column, null where it is not checked: MEDIUMTEXT
   * and LONGBLOB are TEXT and BLOB in Shoal (at most 65535 bytes), and Connector/J names them
   * by their length. MySQL sends ENUM and SET as STRING (254) with ENUM_FLAG or SET_FLAG, which
   * Connector/J (NativeProtocol.findMysqlType) does not look at: they are CHAR to it.
   */
  private static final String[] TYPE_NAMES = {
    "INT", "TINYINT", "TINYINT UNSIGNED", "SMALLINT", "SMALLINT UNSIGNED", "MEDIUMINT",
    "MEDIUMINT UNSIGNED", "INT", "INT UNSIGNED", "BIGINT", "BIGINT UNSIGNED", "FLOAT", "DOUBLE",
    "DECIMAL", "DECIMAL", "CHAR", "VARCHAR", "BINARY", "VARBINARY", "TEXT", null, "BLOB", null,
    "DATE", "TIME", "TIME", "DATETIME", "DATETIME", "TIMESTAMP", "TIMESTAMP", "BIT",
    "CHAR", "CHAR", "JSON",
  };

  /**
   * A document in MySQL's canonical text (keys by length, then bytes; ", " and ": "), so it
   * reads back as written: utf8mb4 unescaped, escapes, numbers, literals, empty containers.
   */
  private static final String JSON_DOC = "{\"f\": false, \"n\": 1.5, \"s\": \"héllo 日本 😀\", "
      + "\"t\": true, \"z\": null, \"arr\": [], \"obj\": {}, \"nested\": {\"e\": "
      + "\"q\\\"b\\\\s\\n\", \"list\": [1, -2, 3.25, \"x\", [null]]}}";

  private static final String DW_MAX = "9".repeat(35) + "." + "9".repeat(30);

  /** One column of one row: what the client binds and what it expects back. */
  private record Cell(Object arg, String want) {}

  private final Connection conn;
  private final boolean serverPrepared;
  private final String table;
  private int passed;
  private final List<String> failures = new ArrayList<>();

  private TypesCheck(Connection conn, boolean serverPrepared, String table) {
    this.conn = conn;
    this.serverPrepared = serverPrepared;
    this.table = table;
  }

  // ---------------------------------------------------------------------------------------
  // Values as the driver returns them, class included.

  static String show(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof byte[] b) {
      return "byte[](" + HexFormat.of().formatHex(b) + ")";
    }
    if (v instanceof BigDecimal d) {
      return "BigDecimal(" + d.toPlainString() + ")";
    }
    return v.getClass().getSimpleName() + "(" + v + ")";
  }

  private static String shorten(String s, int limit) {
    return s.length() <= limit ? s : s.substring(0, limit) + "...(" + s.length() + " chars)";
  }

  private static int columnIndex(String name) {
    for (int i = 0; i < COLUMNS.length; i++) {
      if (COLUMNS[i][0].equals(name)) {
        return i;
      }
    }
    throw new IllegalArgumentException(name);
  }

  private static Cell same(Object v) {
    return new Cell(v, show(v));
  }

  private static Cell cell(Object arg, Object back) {
    return new Cell(arg, show(back));
  }

  /**
   * TIME as getString gives it for MySQL's text of the value ("-838:59:59", "12:34:56.789").
   * Connector/J formats the hours with %02d and drops a zero fraction. It reads a negative
   * value's hours as a number, so "-00:00:01" loses its sign; from the binary protocol it
   * negates only the days: -838:59:59 (34 days 22 h) becomes -794:59:59, and a negative
   * value under 24 hours loses its sign.
   */
  static String timeString(String mysqlText, boolean binary) {
    boolean negative = mysqlText.startsWith("-");
    String[] parts = mysqlText.replace("-", "").split(":");
    int h = Integer.parseInt(parts[0]);
    String[] secondsAndFraction = parts[2].split("\\.");
    int hours;
    if (!negative) {
      hours = h;
    } else if (binary) {
      hours = -(h / 24 * 24) + h % 24;
    } else {
      hours = -h;
    }
    String out = String.format("%02d:%s:%s", hours, parts[1], secondsAndFraction[0]);
    if (secondsAndFraction.length > 1 && !secondsAndFraction[1].matches("0*")) {
      out += "." + secondsAndFraction[1];
    }
    return "String(" + out + ")";
  }

  /** A TIME column: `bind` goes in, MySQL holds `mysqlText`, getString gives timeString. */
  private static Cell time(Object bind, String mysqlText, boolean binary) {
    return new Cell(bind, timeString(mysqlText, binary));
  }

  private static byte[] bytes(int... values) {
    byte[] out = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (byte) values[i];
    }
    return out;
  }

  private static byte[] byteRange(int n) {
    byte[] out = new byte[n];
    for (int i = 0; i < n; i++) {
      out[i] = (byte) i;
    }
    return out;
  }

  private static Timestamp timestamp(String text) {
    return Timestamp.valueOf(text);
  }

  private static Map<String, Cell> row(Object... pairs) {
    Map<String, Cell> out = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      out.put((String) pairs[i], (Cell) pairs[i + 1]);
    }
    return out;
  }

  private static Map<Integer, Map<String, Cell>> rows(boolean bin) {
    Map<Integer, Map<String, Cell>> rows = new TreeMap<>();
    rows.put(1, row());
    rows.put(2, row(
        "ti", same(-128), "tiu", same(0), "si", same(-32768), "siu", same(0),
        "mi", same(-8388608), "miu", same(0), "i", same(-2147483648), "iu", same(0L),
        "bi", same(Long.MIN_VALUE), "biu", same(BigInteger.ZERO), "fl", same(-0.25f),
        "db", same(-1.7976931348623157e308), "de", same(new BigDecimal("-99999999.99")),
        "dw", same(new BigDecimal("-" + DW_MAX)), "ch", same(""), "vc", same(""),
        "bn", cell(new byte[0], new byte[4]), "vb", same(new byte[0]), "tx", same(""),
        "mt", same(""), "bl", same(new byte[0]), "lb", same(new byte[0]),
        "d", cell(LocalDate.of(1000, 1, 1), java.sql.Date.valueOf("1000-01-01")),
        "tm", time("-838:59:59", "-838:59:59", bin),
        "tm3", time("-12:34:56.789", "-12:34:56.789", bin),
        "dt", same(LocalDateTime.of(1000, 1, 1, 0, 0)),
        "dt6", cell("1000-01-01 00:00:00.000000", LocalDateTime.of(1000, 1, 1, 0, 0)),
        "ts", same(timestamp("1970-01-01 00:00:01")),
        "ts6", cell("1970-01-01 00:00:01.000000", timestamp("1970-01-01 00:00:01")),
        "bo", same(false), "en", same("small"), "st", same(""), "js", same("[]")));
    rows.put(3, row(
        "ti", same(127), "tiu", same(255), "si", same(32767), "siu", same(65535),
        "mi", same(8388607), "miu", same(16777215), "i", same(2147483647),
        "iu", same(4294967295L), "bi", same(Long.MAX_VALUE),
        "biu", same(new BigInteger("18446744073709551615")), "fl", same(1.5f),
        "db", same(1e300), "de", same(new BigDecimal("99999999.99")),
        "dw", same(new BigDecimal(DW_MAX)), "ch", same("abcdefghij"), "vc", same("hello, world"),
        "bn", same(bytes(0, 0xff, 1, 0x7f)), "vb", same(bytes(0, 0xff, '\'', '\\', '"', '\n',
            0x1a, '\r')),
        "tx", same("x".repeat(65535)), "mt", same("日本語"), "bl", same(blobMax()),
        "lb", same(byteRange(256)),
        "d", cell(LocalDate.of(9999, 12, 31), java.sql.Date.valueOf("9999-12-31")),
        "tm", time("838:59:59", "838:59:59", bin),
        "tm3", time("838:59:59.000", "838:59:59.000", bin),
        "dt", same(LocalDateTime.of(9999, 12, 31, 23, 59, 59)),
        "dt6", same(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999999000)),
        "ts", same(timestamp("2038-01-19 03:14:07")),
        "ts6", same(timestamp("2038-01-19 03:14:07.999999")), "bo", same(true),
        "en", same("large"), "st", same("red,green,blue"), "js", same(JSON_DOC)));
    rows.put(4, row(
        "ti", same(0), "tiu", same(0), "si", same(0), "siu", same(0), "mi", same(0),
        "miu", same(0), "i", same(0), "iu", same(0L), "bi", same(0L), "biu", same(BigInteger.ZERO),
        "fl", same(0.0f), "db", same(0.0), "de", same(new BigDecimal("0.00")),
        "dw", cell(BigDecimal.ZERO, new BigDecimal("0E-30")), "ch", same("héllo 日本"),
        "vc", same("日本語テキスト 😀🎉 café"), "bn", same(bytes(0xff, 0xff, 0xff, 0xff)),
        "vb", same(bytes(0)), "tx", same("emoji 😀 CJK 中文 한국어\nnew line\ttab"), "mt", same(""),
        "bl", same(bytes(0, 0xff)), "lb", same(new byte[0]),
        "d", cell(LocalDate.of(2024, 2, 29), java.sql.Date.valueOf("2024-02-29")),
        "tm", time("00:00:00", "00:00:00", bin),
        "tm3", time(LocalTime.MIDNIGHT, "00:00:00.000", bin),
        "dt", same(LocalDateTime.of(2024, 2, 29, 0, 0)),
        "dt6", same(LocalDateTime.of(2024, 2, 29, 12, 34, 56, 123456000)),
        "ts", same(timestamp("2024-02-29 12:34:56")),
        "ts6", same(timestamp("2024-02-29 12:34:56.654321")), "bo", same(true),
        "en", cell("MEDIUM", "medium"), "st", cell("blue,red", "red,blue"),
        "js", same("\"x\"")));
    rows.put(5, row(
        "ti", same(-1), "tiu", same(200), "si", same(-300), "siu", same(40000),
        "mi", same(-70000), "miu", same(9000000), "i", same(-123456789),
        "iu", same(3000000000L), "bi", same(-1234567890123456789L),
        "biu", same(new BigInteger("9223372036854775808")), "fl", same(-1024.5f),
        "db", same(0.1), "de", same(new BigDecimal("-12.50")),
        "dw", same(new BigDecimal("-0." + "0".repeat(29) + "1")), "ch", cell("ab  ", "ab"),
        "vc", same("it's \"quoted\" \\ back\\slash"), "bn", cell(bytes('a', 'b'),
            bytes('a', 'b', 0, 0)),
        "vb", same(bytes('\\', '\'', '"')), "tx", same("line1\r\nline2 \0 nul"),
        "mt", same("z".repeat(1000)), "bl", same(bytes('\'', '\\')), "lb", same(byteRange(2560)),
        "d", cell(LocalDate.of(2000, 1, 1), java.sql.Date.valueOf("2000-01-01")),
        "tm", time("-00:00:01", "-00:00:01", bin),
        "tm3", time(LocalTime.of(12, 34, 56, 789000000), "12:34:56.789", bin),
        "dt", same(LocalDateTime.of(2024, 2, 29, 23, 59, 59)),
        "dt6", same(LocalDateTime.of(2000, 1, 1, 0, 0, 0, 1000)),
        "ts", same(timestamp("2000-01-01 00:00:00")),
        "ts6", cell("2000-01-01 00:00:00.5", timestamp("2000-01-01 00:00:00.5")),
        "bo", same(false), "en", same("medium"), "st", same("green"),
        // Not canonical: MySQL sorts the keys and rewrites the numbers and the escape.
        "js", cell("{\"b\":1,\"a\":[1.50,1E2,\"\\u00e9\"],\"\":0}",
            "{\"\": 0, \"a\": [1.5, 100.0, \"é\"], \"b\": 1}")));
    return rows;
  }

  private static byte[] blobMax() {
    byte[] out = new byte[65535];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) i;
    }
    return out;
  }

  private static List<String> want(int id, Map<String, Cell> cells) {
    List<String> out = new ArrayList<>();
    out.add(show(id));
    for (int c = 1; c < COLUMNS.length; c++) {
      Cell cell = cells.get(COLUMNS[c][0]);
      out.add(cell == null ? "null" : cell.want());
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------
  // Running statements

  private void ok(String what) {
    passed++;
    System.out.println("ok: " + what);
  }

  private void fail(String what, String detail) {
    failures.add(what);
    System.err.println("FAIL: " + what + ": " + detail);
  }

  /**
   * setObject for everything but BigInteger, which Connector/J binds as a signed long (2^64 - 1
   * becomes -1): applications pass BIGINT UNSIGNED values as BigDecimal.
   */
  private static void bind(PreparedStatement ps, Object... args) throws SQLException {
    for (int i = 0; i < args.length; i++) {
      if (args[i] instanceof BigInteger b) {
        ps.setBigDecimal(i + 1, new BigDecimal(b));
      } else {
        ps.setObject(i + 1, args[i]);
      }
    }
  }

  /** Reads every row: getString for TIME columns, getObject for the rest. */
  private static List<List<String>> read(ResultSet rs) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    List<List<String>> out = new ArrayList<>();
    while (rs.next()) {
      List<String> row = new ArrayList<>();
      for (int c = 1; c <= md.getColumnCount(); c++) {
        if (md.getColumnType(c) == java.sql.Types.TIME) {
          String s = rs.getString(c);
          row.add(s == null ? "null" : "String(" + s + ")");
        } else {
          row.add(show(rs.getObject(c)));
        }
      }
      out.add(row);
    }
    return out;
  }

  /**
   * Runs a SELECT: a plain Statement when there are no parameters and the mode is text, else
   * a PreparedStatement (server-side with useServerPrepStmts=true).
   */
  private List<List<String>> query(String sql, Object... args) throws SQLException {
    if (args.length == 0 && !serverPrepared) {
      try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
        return read(rs);
      }
    }
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      bind(ps, args);
      try (ResultSet rs = ps.executeQuery()) {
        return read(rs);
      }
    }
  }

  private int update(String sql, Object... args) throws SQLException {
    if (args.length == 0 && !serverPrepared) {
      try (Statement st = conn.createStatement()) {
        return st.executeUpdate(sql);
      }
    }
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      bind(ps, args);
      return ps.executeUpdate();
    }
  }

  private void compareRows(String what, List<List<String>> got, List<List<String>> want) {
    if (got.size() != want.size()) {
      fail(what, "expected " + want.size() + " rows, got " + got.size() + ": "
          + shorten(got.toString(), 400));
      return;
    }
    List<String> diffs = new ArrayList<>();
    for (int r = 0; r < want.size(); r++) {
      List<String> g = got.get(r);
      List<String> w = want.get(r);
      if (g.size() != w.size()) {
        diffs.add("row " + r + ": " + g.size() + " columns, expected " + w.size());
        continue;
      }
      for (int c = 0; c < w.size(); c++) {
        if (!g.get(c).equals(w.get(c))) {
          String name = w.size() == COLUMNS.length ? COLUMNS[c][0] : Integer.toString(c);
          diffs.add("row " + r + " " + name + ": expected " + shorten(w.get(c), 120) + ", got "
              + shorten(g.get(c), 120));
        }
      }
    }
    if (diffs.isEmpty()) {
      ok(what);
    } else {
      fail(what, String.join("; ", diffs));
    }
  }

  /** Equal as text; two lists of one length that differ are reported element by element. */
  private void equal(String what, Object got, Object want) {
    if (String.valueOf(got).equals(String.valueOf(want))) {
      ok(what);
    } else if (got instanceof List<?> g && want instanceof List<?> w && g.size() == w.size()) {
      List<String> diffs = new ArrayList<>();
      for (int i = 0; i < w.size(); i++) {
        if (!String.valueOf(g.get(i)).equals(String.valueOf(w.get(i)))) {
          diffs.add("[" + i + "] expected " + w.get(i) + ", got " + g.get(i));
        }
      }
      fail(what, String.join("; ", diffs));
    } else {
      fail(what, "expected " + want + ", got " + got);
    }
  }

  /** A check that may throw: a driver error where none was expected fails only that check. */
  private interface Step {
    void run() throws SQLException;
  }

  private void guarded(String what, Step step) {
    try {
      step.run();
    } catch (SQLException e) {
      fail(what, "error " + e.getErrorCode() + ": " + e.getMessage());
    }
  }

  // ---------------------------------------------------------------------------------------
  // The checks

  private void create() throws SQLException {
    update("DROP TABLE IF EXISTS " + table);
    List<String> defs = new ArrayList<>();
    for (String[] c : COLUMNS) {
      defs.add(c[0] + " " + c[1]);
    }
    update("CREATE TABLE " + table + " (" + String.join(", ", defs) + ")");
    ok("create table " + table + " with " + COLUMNS.length + " columns");
  }

  private void insert(Map<Integer, Map<String, Cell>> rows) {
    List<String> names = new ArrayList<>();
    for (String[] c : COLUMNS) {
      names.add(c[0]);
    }
    String sql = "INSERT INTO " + table + " (" + String.join(", ", names) + ") VALUES ("
        + String.join(", ", java.util.Collections.nCopies(names.size(), "?")) + ")";
    for (int id : rows.keySet()) {
      if (id == 1) {
        continue;
      }
      Object[] args = new Object[COLUMNS.length];
      args[0] = id;
      for (int c = 1; c < COLUMNS.length; c++) {
        Cell cell = rows.get(id).get(COLUMNS[c][0]);
        args[c] = cell == null ? null : cell.arg();
      }
      String what = "insert row " + id + ": affected rows";
      guarded(what, () -> equal(what, update(sql, args), 1));
    }
    guarded("insert the NULL row", () -> equal("insert the NULL row: affected rows",
        update("INSERT INTO " + table + " (id) VALUES (?)", 1), 1));
  }

  private void metadata() throws SQLException {
    String sql = "SELECT * FROM " + table + " WHERE id = ?";
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      ps.setInt(1, 1);
      try (ResultSet rs = ps.executeQuery()) {
        ResultSetMetaData md = rs.getMetaData();
        List<String> names = new ArrayList<>();
        List<String> types = new ArrayList<>();
        List<String> wantTypes = new ArrayList<>();
        List<String> nullable = new ArrayList<>();
        List<String> wantNullable = new ArrayList<>();
        List<String> signed = new ArrayList<>();
        List<String> wantSigned = new ArrayList<>();
        for (int c = 1; c <= md.getColumnCount(); c++) {
          names.add(md.getColumnName(c));
          if (c <= TYPE_NAMES.length && TYPE_NAMES[c - 1] != null) {
            types.add(md.getColumnTypeName(c));
            wantTypes.add(TYPE_NAMES[c - 1]);
          }
          nullable.add(Integer.toString(md.isNullable(c)));
          wantNullable.add(c == 1 ? "0" : "1");
          if (c <= 11) {
            signed.add(Boolean.toString(md.isSigned(c)));
            wantSigned.add(Boolean.toString(!COLUMNS[c - 1][1].contains("UNSIGNED")));
          }
        }
        List<String> wantNames = new ArrayList<>();
        for (String[] c : COLUMNS) {
          wantNames.add(c[0]);
        }
        equal("column names", names, wantNames);
        equal("column type names", types, wantTypes);
        List<String> jdbc = new ArrayList<>();
        for (String name : List.of("en", "st", "js")) {
          int c = columnIndex(name) + 1;
          jdbc.add(name + ":" + md.getColumnType(c) + ":" + md.getColumnClassName(c));
        }
        equal("JDBC type and class of en, st, js", jdbc,
            List.of("en:" + java.sql.Types.CHAR + ":java.lang.String",
                "st:" + java.sql.Types.CHAR + ":java.lang.String",
                "js:" + java.sql.Types.LONGVARCHAR + ":java.lang.String"));
        equal("column nullability", nullable, wantNullable);
        equal("integer columns signed", signed, wantSigned);
        int de = columnIndex("de") + 1;
        int dw = columnIndex("dw") + 1;
        equal("DECIMAL precision and scale",
            Arrays.asList(md.getPrecision(de), md.getScale(de), md.getPrecision(dw),
                md.getScale(dw)),
            Arrays.asList(10, 2, 65, 30));
      }
    }
  }

  private void selectAll(Map<Integer, List<String>> expected) {
    List<List<String>> all = new ArrayList<>();
    for (Map.Entry<Integer, List<String>> e : expected.entrySet()) {
      String what = "select row " + e.getKey() + " by primary key";
      guarded(what, () -> compareRows(what,
          query("SELECT * FROM " + table + " WHERE id = ?", e.getKey()), List.of(e.getValue())));
      all.add(e.getValue());
    }
    String what = "select all " + expected.size() + " rows ORDER BY id";
    guarded(what, () -> compareRows(what, query("SELECT * FROM " + table + " ORDER BY id"), all));
  }

  private void lookups() {
    Object[][] probes = {
      {"biu = ?", new Object[] {new BigInteger("18446744073709551615")}, List.of(3)},
      {"bi = ?", new Object[] {Long.MIN_VALUE}, List.of(2)},
      {"iu = ?", new Object[] {4294967295L}, List.of(3)},
      {"de = ?", new Object[] {new BigDecimal("-12.50")}, List.of(5)},
      {"dw = ?", new Object[] {new BigDecimal("-" + DW_MAX)}, List.of(2)},
      {"db = ?", new Object[] {1e300}, List.of(3)},
      {"fl = ?", new Object[] {1.5f}, List.of(3)},
      {"d = ?", new Object[] {LocalDate.of(2024, 2, 29)}, List.of(4)},
      {"dt6 = ?", new Object[] {LocalDateTime.of(2024, 2, 29, 12, 34, 56, 123456000)},
          List.of(4)},
      {"ts = ?", new Object[] {timestamp("2038-01-19 03:14:07")}, List.of(3)},
      {"tm = ?", new Object[] {"-838:59:59"}, List.of(2)},
      {"tm3 = ?", new Object[] {LocalTime.of(12, 34, 56, 789000000)}, List.of(5)},
      {"vb = ?", new Object[] {bytes(0)}, List.of(4)},
      {"bn = ?", new Object[] {bytes(0, 0xff, 1, 0x7f)}, List.of(3)},
      {"vc = ?", new Object[] {"日本語テキスト 😀🎉 café"}, List.of(4)},
      {"ch = ?", new Object[] {"ab"}, List.of(5)},
      {"bo = ?", new Object[] {true}, List.of(3, 4)},
      {"ts IS NULL", new Object[] {}, List.of(1)},
      {"ti BETWEEN ? AND ?", new Object[] {-128, 0}, List.of(2, 4, 5)},
      {"en = ?", new Object[] {"medium"}, List.of(4, 5)},
      // The column's collation is case-insensitive.
      {"en = ?", new Object[] {"LARGE"}, List.of(3)},
      {"js->>'$.s' = ?", new Object[] {"héllo 日本 😀"}, List.of(3)},
    };
    for (Object[] p : probes) {
      String where = (String) p[0];
      Object[] args = (Object[]) p[1];
      @SuppressWarnings("unchecked")
      List<Integer> ids = (List<Integer>) p[2];
      List<List<String>> want = new ArrayList<>();
      for (int id : ids) {
        want.add(List.of(show(id)));
      }
      String what = "lookup WHERE " + where + " " + shorten(Arrays.toString(args), 40);
      guarded(what, () -> compareRows(what,
          query("SELECT id FROM " + table + " WHERE " + where + " ORDER BY id", args), want));
    }
  }

  private void aggregates() {
    String what = "aggregates COUNT/SUM/MIN/MAX";
    guarded(what, () -> compareRows(what,
        query("SELECT COUNT(*), COUNT(ts), SUM(i), MIN(d), MAX(dt6), MAX(biu), MIN(de) FROM "
            + table),
        List.of(List.of(show(5L), show(4L), show(new BigDecimal("-123456790")),
            show(java.sql.Date.valueOf("1000-01-01")),
            show(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999999000)),
            show(new BigInteger("18446744073709551615")),
            show(new BigDecimal("-99999999.99"))))));
  }

  private void updateDelete(Map<Integer, List<String>> expected) {
    String what1 = "update SET NULL, i = i + 1: affected rows";
    guarded(what1, () -> equal(what1, update("UPDATE " + table + " SET vc = NULL, i = i + 1, "
        + "de = de + 1, bi = bi - 1 WHERE id = ?", 4), 1));
    List<String> row4 = expected.get(4);
    row4.set(columnIndex("vc"), "null");
    row4.set(columnIndex("i"), show(1));
    row4.set(columnIndex("de"), show(new BigDecimal("1.00")));
    row4.set(columnIndex("bi"), show(-1L));

    LocalDateTime newDt6 = LocalDateTime.of(2024, 2, 29, 0, 0, 0, 500000000);
    String what2 = "update with bound values: affected rows";
    guarded(what2, () -> equal(what2, update("UPDATE " + table + " SET dt6 = ?, bl = ?, tm = ?, "
        + "ch = ?, ti = NULL WHERE id = ?", newDt6, bytes(0xff, 0, 0xfe), "-01:02:03", "x", 3),
        1));
    List<String> row3 = expected.get(3);
    row3.set(columnIndex("dt6"), show(newDt6));
    row3.set(columnIndex("bl"), show(bytes(0xff, 0, 0xfe)));
    row3.set(columnIndex("tm"), timeString("-01:02:03", serverPrepared));
    row3.set(columnIndex("ch"), show("x"));
    row3.set(columnIndex("ti"), "null");

    String whatJson = "update JSON_SET(js, '$.k', ?), ENUM, SET: affected rows";
    guarded(whatJson, () -> equal(whatJson, update("UPDATE " + table + " SET js = JSON_SET(js, "
        + "'$.k', ?), en = ?, st = ? WHERE id = ?", "välue", "small", "blue,green", 3), 1));
    row3.set(columnIndex("js"), show(JSON_DOC.replace("\"n\": ", "\"k\": \"välue\", \"n\": ")));
    row3.set(columnIndex("en"), show("small"));
    row3.set(columnIndex("st"), show("green,blue"));

    String what3 = "update siu = siu + 1 on two rows: affected rows";
    guarded(what3, () -> equal(what3,
        update("UPDATE " + table + " SET siu = siu + 1 WHERE id IN (2, 5)"), 2));
    expected.get(2).set(columnIndex("siu"), show(1));
    expected.get(5).set(columnIndex("siu"), show(40001));

    String what4 = "delete one row: affected rows";
    guarded(what4, () -> equal(what4, update("DELETE FROM " + table + " WHERE id = ?", 5), 1));
    expected.remove(5);
    String what5 = "delete a missing row: affected rows";
    guarded(what5, () -> equal(what5, update("DELETE FROM " + table + " WHERE id = ?", 5), 0));
    selectAll(expected);
  }

  /** One INSERT with several rows and a column list. */
  private void multiRow() {
    String what = "multi-row INSERT: affected rows";
    guarded(what, () -> {
      equal(what, update("INSERT INTO " + table + " (id, vc, d, de) VALUES (?, ?, ?, ?), "
          + "(?, ?, ?, ?), (?, ?, ?, ?)",
          20, "a", LocalDate.of(2020, 1, 1), new BigDecimal("1.10"),
          21, "ß", null, new BigDecimal("-0.01"),
          22, "", LocalDate.of(2021, 12, 31), null), 3);
      compareRows("multi-row INSERT: rows back, ORDER BY id DESC",
          query("SELECT id, vc, d, de FROM " + table + " WHERE id >= ? ORDER BY id DESC", 20),
          List.of(
              List.of(show(22), show(""), show(java.sql.Date.valueOf("2021-12-31")), "null"),
              List.of(show(21), show("ß"), "null", show(new BigDecimal("-0.01"))),
              List.of(show(20), show("a"), show(java.sql.Date.valueOf("2020-01-01")),
                  show(new BigDecimal("1.10")))));
      compareRows("ORDER BY id LIMIT 2",
          query("SELECT id FROM " + table + " WHERE id >= ? ORDER BY id LIMIT 2", 20),
          List.of(List.of(show(20)), List.of(show(21))));
      equal("DELETE WHERE id >= 20: affected rows",
          update("DELETE FROM " + table + " WHERE id >= ?", 20), 3);
    });
  }

  /**
   * A driver batch: addBatch/executeBatch of an INSERT, sent a statement per row, and on a
   * second connection with rewriteBatchedStatements=true, which rewrites it into multi-row
   * INSERTs.
   */
  private void batches(String rewriteUrl, String user, String password) {
    for (boolean rewrite : new boolean[] {false, true}) {
      String what = rewrite ? "executeBatch, rewritten" : "executeBatch";
      guarded(what, () -> {
        try (Connection rewriting =
                rewrite ? DriverManager.getConnection(rewriteUrl, user, password) : null;
            PreparedStatement ps = (rewrite ? rewriting : conn).prepareStatement(
                "INSERT INTO " + table + " (id, vc) VALUES (?, ?)")) {
          for (int i = 0; i < 250; ++i) {
            ps.setInt(1, 100 + i);
            ps.setString(2, "batch " + i);
            ps.addBatch();
          }
          equal(what + ": statements", ps.executeBatch().length, 250);
        }
        compareRows(what + ": rows back",
            query("SELECT COUNT(*), SUM(id), MAX(vc) FROM " + table + " WHERE id >= ? AND id < ?",
                100, 350),
            List.of(List.of(show(250L), show(new BigDecimal("56125")), show("batch 99"))));
        equal(what + ": DELETE of the batch",
            update("DELETE FROM " + table + " WHERE id >= ? AND id < ?", 100, 350), 250);
      });
    }
  }

  private void transactions() {
    String sel = "SELECT id FROM " + table + " WHERE id = ?";
    guarded("BEGIN; INSERT; ROLLBACK", () -> {
      update("BEGIN");
      update("INSERT INTO " + table + " (id, vc) VALUES (?, ?)", 10, "rolled back");
      compareRows("BEGIN; INSERT: the row is visible inside",
          query("SELECT vc FROM " + table + " WHERE id = ?", 10),
          List.of(List.of(show("rolled back"))));
      update("ROLLBACK");
      compareRows("BEGIN; INSERT; ROLLBACK: the row is absent", query(sel, 10), List.of());
    });
    guarded("BEGIN; INSERT; COMMIT", () -> {
      update("BEGIN");
      update("INSERT INTO " + table + " (id, vc) VALUES (?, ?)", 11, "committed");
      update("COMMIT");
      compareRows("BEGIN; INSERT; COMMIT: the row is present", query(sel, 11),
          List.of(List.of(show(11))));
    });
    // JDBC's own transactions: autocommit off, then rollback() or commit().
    guarded("setAutoCommit(false); INSERT; rollback()/commit()", () -> {
      conn.setAutoCommit(false);
      update("INSERT INTO " + table + " (id, i) VALUES (?, ?)", 12, 12);
      conn.rollback();
      compareRows("setAutoCommit(false); INSERT; rollback(): the row is absent", query(sel, 12),
          List.of());
      update("INSERT INTO " + table + " (id, i) VALUES (?, ?)", 13, 13);
      conn.commit();
      conn.setAutoCommit(true);
      compareRows("setAutoCommit(false); INSERT; commit(): the row is present", query(sel, 13),
          List.of(List.of(show(13))));
      update("DELETE FROM " + table + " WHERE id IN (11, 13)");
    });
  }

  private void errors() {
    Object[][] cases = {
      {"duplicate key", "INSERT INTO " + table + " (id) VALUES (?)", new Object[] {2}, 1062},
      {"TINYINT out of range", "INSERT INTO " + table + " (id, ti) VALUES (?, ?)",
          new Object[] {100, 128}, 1264},
      {"TINYINT UNSIGNED below 0", "INSERT INTO " + table + " (id, tiu) VALUES (?, ?)",
          new Object[] {100, -1}, 1264},
      {"BIGINT UNSIGNED below 0", "INSERT INTO " + table + " (id, biu) VALUES (?, ?)",
          new Object[] {100, -1}, 1264},
      {"DECIMAL(10,2) out of range", "INSERT INTO " + table + " (id, de) VALUES (?, ?)",
          new Object[] {100, new BigDecimal("100000000.00")}, 1264},
      {"UPDATE ti = 127 + 1", "UPDATE " + table + " SET ti = 127 + 1 WHERE id = ?",
          new Object[] {2}, 1264},
      {"VARCHAR(100) too long", "INSERT INTO " + table + " (id, vc) VALUES (?, ?)",
          new Object[] {100, "x".repeat(101)}, 1406},
      {"CHAR(10) too long (multibyte)", "INSERT INTO " + table + " (id, ch) VALUES (?, ?)",
          new Object[] {100, "😀".repeat(11)}, 1406},
      {"BINARY(4) too long", "INSERT INTO " + table + " (id, bn) VALUES (?, ?)",
          new Object[] {100, bytes('a', 'b', 'c', 'd', 'e')}, 1406},
      {"BLOB over 65535 bytes", "INSERT INTO " + table + " (id, bl) VALUES (?, ?)",
          new Object[] {100, new byte[65536]}, 1406},
      {"not an ENUM member", "INSERT INTO " + table + " (id, en) VALUES (?, ?)",
          new Object[] {100, "huge"}, 1265},
      {"not a SET member", "INSERT INTO " + table + " (id, st) VALUES (?, ?)",
          new Object[] {100, "red,purple"}, 1265},
      {"invalid JSON text", "INSERT INTO " + table + " (id, js) VALUES (?, ?)",
          new Object[] {100, "{bad"}, 3140},
    };
    for (Object[] c : cases) {
      int code = (Integer) c[3];
      String what = "error " + code + " (" + c[0] + ")";
      try {
        update((String) c[1], (Object[]) c[2]);
        fail(what, "the statement succeeded");
      } catch (SQLException e) {
        if (e.getErrorCode() == code) {
          ok(what);
        } else {
          fail(what, "got " + e.getErrorCode() + " " + e.getMessage());
        }
      }
    }
    guarded("failed statements left no row", () -> compareRows("failed statements left no row",
        query("SELECT COUNT(*) FROM " + table + " WHERE id = 100"), List.of(List.of(show(0L)))));
  }

  /** The `types` subcommand: args are jdbc-url user password table. Returns the exit code. */
  static int run(String[] args) throws SQLException {
    TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
    String url = args[0];
    String user = args[1];
    String password = args[2];
    String table = args[3];
    int q = url.indexOf('?');
    String base = q < 0 ? url : url.substring(0, q);
    String params = q < 0 ? "" : url.substring(q);
    if (!base.endsWith("/")) {
      System.err.println("FAIL: the URL must name no database: " + url);
      return 2;
    }
    try (Connection setup = DriverManager.getConnection(url, user, password);
        Statement st = setup.createStatement()) {
      st.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
    }
    boolean serverPrepared = url.contains("useServerPrepStmts=true");
    String mode = serverPrepared ? "server-prepared" : "client-prepared";
    try (Connection conn = DriverManager.getConnection(base + DATABASE + params, user,
        password)) {
      TypesCheck t = new TypesCheck(conn, serverPrepared, table);
      Map<Integer, List<String>> expected = new TreeMap<>();
      Map<Integer, Map<String, Cell>> rows = rows(serverPrepared);
      for (Map.Entry<Integer, Map<String, Cell>> e : rows.entrySet()) {
        expected.put(e.getKey(), want(e.getKey(), e.getValue()));
      }
      t.guarded("create table", t::create);
      t.insert(rows);
      t.guarded("column metadata", t::metadata);
      t.selectAll(expected);
      t.lookups();
      t.aggregates();
      t.updateDelete(expected);
      t.multiRow();
      t.batches(base + DATABASE + (params.isEmpty() ? "?" : params + "&")
          + "rewriteBatchedStatements=true", user, password);
      t.transactions();
      t.errors();
      t.guarded("drop table", () -> t.update("DROP TABLE " + table));
      if (!t.failures.isEmpty()) {
        System.err.println("FAIL: types java " + mode + ": " + t.failures.size() + " of "
            + (t.failures.size() + t.passed) + " checks failed: "
            + String.join("; ", t.failures));
        return 1;
      }
      System.out.println("ok: types java " + mode + ": " + t.passed + " checks");
      return 0;
    }
  }
}
