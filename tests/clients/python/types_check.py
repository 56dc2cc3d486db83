"""Every column type through a real Python driver: create a table with one column of each
type Shoal supports, insert edge values (NULLs, integer limits, full-precision decimals,
exact floats, utf8mb4, binary bytes, leap days, negative and fractional TIME, ENUM and SET
members in another case or order, JSON documents to be normalized), read them back and
compare value AND Python type exactly with what the driver gives against MySQL; then typed
lookups (an ENUM member, a JSON path), aggregates, UPDATE (SET NULL, col = col + 1,
JSON_SET), DELETE, transactions and the errors 1062, 1264, 1265, 1406 and 3140.

Prints "ok: <check>" per passing check; a mismatch prints "FAIL: <check>: ..." to stderr and
the run goes on; the exit code is 1 if anything failed. The last line on success is
"ok: types <driver> <mode>: N checks".

  client.py types --driver pymysql|connector [--prepared] [--pure] --table NAME
            [--socket PATH | --host H --port P] --user U [--password P]
"""
import argparse
import datetime
import sys
from decimal import Decimal

DATABASE = "drivers"

# (name, definition); the same table in the Go and Java clients.
COLUMNS = [
    ("id", "INT NOT NULL PRIMARY KEY"),
    ("ti", "TINYINT"), ("tiu", "TINYINT UNSIGNED"),
    ("si", "SMALLINT"), ("siu", "SMALLINT UNSIGNED"),
    ("mi", "MEDIUMINT"), ("miu", "MEDIUMINT UNSIGNED"),
    ("i", "INT"), ("iu", "INT UNSIGNED"),
    ("bi", "BIGINT"), ("biu", "BIGINT UNSIGNED"),
    ("fl", "FLOAT"), ("db", "DOUBLE"),
    ("de", "DECIMAL(10,2)"), ("dw", "DECIMAL(65,30)"),
    ("ch", "CHAR(10)"), ("vc", "VARCHAR(100)"),
    ("bn", "BINARY(4)"), ("vb", "VARBINARY(16)"),
    ("tx", "TEXT"), ("mt", "MEDIUMTEXT"), ("bl", "BLOB"), ("lb", "LONGBLOB"),
    ("d", "DATE"), ("tm", "TIME"), ("tm3", "TIME(3)"),
    ("dt", "DATETIME"), ("dt6", "DATETIME(6)"),
    ("ts", "TIMESTAMP NULL"), ("ts6", "TIMESTAMP(6) NULL"),
    ("bo", "BOOL"),
    ("en", "ENUM('small','medium','large')"), ("st", "SET('red','green','blue')"),
    ("js", "JSON"),
]
NAMES = [c for c, _ in COLUMNS]

# MySQL's field types (the wire's column definition type byte) for each column.
TYPE_CODES = {
    "id": 3, "ti": 1, "tiu": 1, "si": 2, "siu": 2, "mi": 9, "miu": 9, "i": 3, "iu": 3,
    "bi": 8, "biu": 8, "fl": 4, "db": 5, "de": 246, "dw": 246, "ch": 254, "vc": 253,
    "bn": 254, "vb": 253, "tx": 252, "mt": 252, "bl": 252, "lb": 252, "d": 10, "tm": 11,
    "tm3": 11, "dt": 12, "dt6": 12, "ts": 7, "ts6": 7, "bo": 1, "en": 254, "st": 254,
    "js": 245,
}
UNSIGNED = {"tiu", "siu", "miu", "iu", "biu"}
ENUM_MEMBERS = ("small", "medium", "large")
SET_MEMBERS = ("red", "green", "blue")
ENUM_FLAG, SET_FLAG = 0x100, 0x800  # column definition flags
BINARY_CHARSET = 63

DW_MAX = "9" * 35 + "." + "9" * 30  # DECIMAL(65,30) at full precision
TEXT_MAX = "x" * 65535  # TEXT's limit in bytes
BLOB_MAX = bytes(range(256)) * 255 + bytes(range(255))  # 65535 bytes

# A document in MySQL's canonical text (keys by length, then bytes; ", " and ": "), so it
# reads back as written: utf8mb4 unescaped, escapes, numbers, literals, empty containers.
JSON_DOC = ('{"f": false, "n": 1.5, "s": "h\u00e9llo \u65e5\u672c \U0001F600", "t": true, '
            '"z": null, "arr": [], "obj": {}, "nested": {"e": "q\\"b\\\\s\\n", '
            '"list": [1, -2, 3.25, "x", [null]]}}')
# Documents that are not canonical, and the text MySQL normalizes them to.
JSON_CANONICAL = {
    '{"b":1,"a":[1.50,1E2,"\\u00e9"],"":0}': '{"": 0, "a": [1.5, 100.0, "\u00e9"], "b": 1}',
}

# The rows inserted, as the client binds them (None is NULL). TIME goes in as text where a
# timedelta would not do (PyMySQL formats negative timedeltas wrongly).
ROWS = {
    1: {},  # every nullable column NULL
    2: dict(ti=-128, tiu=0, si=-32768, siu=0, mi=-8388608, miu=0, i=-2147483648, iu=0,
            bi=-9223372036854775808, biu=0, fl=-0.25, db=-1.7976931348623157e308,
            de=Decimal("-99999999.99"), dw=Decimal("-" + DW_MAX), ch="", vc="", bn=b"",
            vb=b"", tx="", mt="", bl=b"", lb=b"", d=datetime.date(1000, 1, 1),
            tm="-838:59:59", tm3="-12:34:56.789",
            dt=datetime.datetime(1000, 1, 1), dt6="1000-01-01 00:00:00.000000",
            ts=datetime.datetime(1970, 1, 1, 0, 0, 1),
            ts6="1970-01-01 00:00:01.000000", bo=False, en="small", st="", js="[]"),
    3: dict(ti=127, tiu=255, si=32767, siu=65535, mi=8388607, miu=16777215, i=2147483647,
            iu=4294967295, bi=9223372036854775807, biu=18446744073709551615, fl=1.5,
            db=1e300, de=Decimal("99999999.99"), dw=Decimal(DW_MAX), ch="abcdefghij",
            vc="hello, world", bn=b"\x00\xff\x01\x7f", vb=b"\x00\xff'\\\"\n\x1a\r",
            tx=TEXT_MAX, mt="\u65e5\u672c\u8a9e", bl=BLOB_MAX, lb=bytes(range(256)),
            d=datetime.date(9999, 12, 31), tm=datetime.timedelta(hours=838, minutes=59,
                                                                 seconds=59),
            tm3="838:59:59.000", dt=datetime.datetime(9999, 12, 31, 23, 59, 59),
            dt6=datetime.datetime(9999, 12, 31, 23, 59, 59, 999999),
            ts=datetime.datetime(2038, 1, 19, 3, 14, 7),
            ts6=datetime.datetime(2038, 1, 19, 3, 14, 7, 999999), bo=True, en="large",
            st="red,green,blue", js=JSON_DOC),
    4: dict(ti=0, tiu=0, si=0, siu=0, mi=0, miu=0, i=0, iu=0, bi=0, biu=0, fl=0.0, db=0.0,
            de=Decimal("0.00"), dw=Decimal("0"), ch="h\u00e9llo \u65e5\u672c",
            vc="\u65e5\u672c\u8a9e\u30c6\u30ad\u30b9\u30c8 \U0001F600\U0001F389 caf\u00e9",
            bn=b"\xff\xff\xff\xff", vb=b"\x00",
            tx="emoji \U0001F600 CJK \u4e2d\u6587 \ud55c\uad6d\uc5b4\nnew line\ttab",
            mt="", bl=b"\x00\xff", lb=b"", d=datetime.date(2024, 2, 29),
            tm=datetime.timedelta(0), tm3=datetime.timedelta(0),
            dt=datetime.datetime(2024, 2, 29),
            dt6=datetime.datetime(2024, 2, 29, 12, 34, 56, 123456),
            ts=datetime.datetime(2024, 2, 29, 12, 34, 56),
            ts6=datetime.datetime(2024, 2, 29, 12, 34, 56, 654321), bo=True, en="MEDIUM",
            st="blue,red", js='"x"'),
    5: dict(ti=-1, tiu=200, si=-300, siu=40000, mi=-70000, miu=9000000, i=-123456789,
            iu=3000000000, bi=-1234567890123456789, biu=9223372036854775808, fl=-1024.5,
            db=0.1, de=Decimal("-12.50"), dw=Decimal("-0." + "0" * 29 + "1"), ch="ab  ",
            vc="it's \"quoted\" \\ back\\slash", bn=b"ab", vb=b"\\'\"",
            tx="line1\r\nline2 \x00 nul", mt="z" * 1000, bl=b"'\\", lb=bytes(range(256)) * 10,
            d=datetime.date(2000, 1, 1), tm="-00:00:01",
            tm3=datetime.timedelta(hours=12, minutes=34, seconds=56, microseconds=789000),
            dt=datetime.datetime(2024, 2, 29, 23, 59, 59),
            dt6=datetime.datetime(2000, 1, 1, 0, 0, 0, 1),
            ts=datetime.datetime(2000, 1, 1), ts6="2000-01-01 00:00:00.5", bo=False,
            en="medium", st="green", js='{"b":1,"a":[1.50,1E2,"\\u00e9"],"":0}'),
}


# mysql-connector-python's pure binary-protocol reader negates only the days of a negative
# TIME (protocol.py _parse_binary_time): '-838:59:59' comes back as -34 days + 22:59:59.
# That is what MySQL gives this driver, so it is what the prepared pure mode expects.
time_sign_on_days_only = False

# How the driver hands back SET and JSON columns (both type-tagged by MySQL: a SET is a
# STRING with SET_FLAG, a JSON column is type 245 in charset 63 binary). PyMySQL: str for
# both. mysql-connector-python's text protocol, pure (conversion.py _string_to_python) and C
# extension (mysql_capi.c MySQL_fetch_row): a Python set for SET_FLAG, str for type 245. Its
# pure binary protocol (protocol.py _parse_binary_values) converts neither: the SET as str,
# and JSON as bytes, for its charset is 63.
set_as_python_set = False
json_as_bytes = False


def parse_time(text):
    """'-838:59:59' or '12:34:56.789' as the timedelta the driver returns."""
    negative = text.startswith("-")
    h, m, s = text.lstrip("-").split(":")
    whole, _, frac = s.partition(".")
    micros = int((frac + "000000")[:6])
    if negative and time_sign_on_days_only:
        return datetime.timedelta(days=-(int(h) // 24), hours=int(h) % 24, minutes=int(m),
                                  seconds=int(whole), microseconds=micros)
    sign = -1 if negative else 1
    return sign * datetime.timedelta(hours=int(h), minutes=int(m), seconds=int(whole),
                                     microseconds=micros)


def enum_member(text):
    """The declared member a string names (ENUM compares in the column's _ai_ci collation)."""
    return next(m for m in ENUM_MEMBERS if m.lower() == text.lower())


def set_members(text):
    """A SET's members as MySQL returns them: declared order, no duplicates."""
    given = {m.lower() for m in text.split(",") if m}
    return [m for m in SET_MEMBERS if m in given]


def set_value(text):
    members = set_members(text)
    return set(members) if set_as_python_set else ",".join(members)


def json_value(text):
    canonical = JSON_CANONICAL.get(text, text)
    return canonical.encode() if json_as_bytes else canonical


def expected_value(column, value):
    """What MySQL gives back for `value` stored in `column` (Python type included)."""
    if value is None:
        return None
    if column == "en":
        return enum_member(value)
    if column == "st":
        return set_value(value)
    if column == "js":
        return json_value(value)
    if column == "ch":
        return value.rstrip(" ")  # CHAR drops trailing spaces
    if column == "bn":
        return value.ljust(4, b"\x00")  # BINARY pads with 0x00
    if column in ("tm", "tm3") and isinstance(value, str):
        return parse_time(value)
    if column in ("dt", "dt6", "ts", "ts6") and isinstance(value, str):
        return datetime.datetime.fromisoformat(value.ljust(26, "0"))
    if column == "bo":
        return int(value)  # BOOL is TINYINT(1): an int comes back
    if column == "dw" and value == 0:
        return Decimal("0." + "0" * 30)
    return value


def expected_row(row_id, values):
    return (row_id,) + tuple(expected_value(c, values.get(c)) for c in NAMES[1:])


def shorten(text, limit=300):
    return text if len(text) <= limit else text[:limit] + f"...({len(text)} chars)"


def same(got, want):
    """Equal in value and in type (Decimal scale and float bits included)."""
    if isinstance(want, (set, frozenset)):  # a set's repr has no fixed order
        return type(got) is type(want) and got == want
    if isinstance(want, (tuple, list)):
        return (isinstance(got, (tuple, list)) and len(got) == len(want)
                and all(same(g, w) for g, w in zip(got, want)))
    return type(got) is type(want) and repr(got) == repr(want)


class Checker:
    def __init__(self, label):
        self.label = label
        self.passed = 0
        self.failures = []

    def ok(self, what):
        self.passed += 1
        print(f"ok: {what}", flush=True)

    def fail(self, what, detail):
        self.failures.append(what)
        print(f"FAIL: {what}: {detail}", file=sys.stderr, flush=True)

    def equal(self, what, got, want):
        if same(got, want):
            self.ok(what)
            return
        self.fail(what, difference(got, want))


def difference(got, want):
    """Where `got` differs from `want`: per column for rows, else both in full."""
    if (isinstance(want, list) and isinstance(got, (list, tuple)) and len(got) == len(want)
            and all(isinstance(w, tuple) for w in want)):
        return " | ".join(f"row {k}: {difference(g, w)}"
                          for k, (g, w) in enumerate(zip(got, want)) if not same(g, w))
    if (isinstance(want, tuple) and isinstance(got, (list, tuple)) and len(got) == len(want)
            and len(want) == len(NAMES)):
        return "; ".join(f"{NAMES[k]}: expected {shorten(repr(w), 120)}, got "
                         f"{shorten(repr(g), 120)}"
                         for k, (g, w) in enumerate(zip(got, want)) if not same(g, w))
    return f"expected {shorten(repr(want))}, got {shorten(repr(got))}"


class Session:
    """One connection and the cursor kind of the mode under test."""

    def __init__(self, args):
        self.args = args
        self.conn, self.db_error = connect(args, DATABASE)
        self.prepared = args.prepared

    def cursor(self):
        if self.prepared:
            return self.conn.cursor(prepared=True)
        return self.conn.cursor()

    def run(self, sql, params=None):
        """Executes one statement; returns (rows or None, rowcount, description)."""
        cur = self.cursor()
        try:
            cur.execute(sql, params)
            rows = [tuple(r) for r in cur.fetchall()] if cur.description else None
            return rows, cur.rowcount, cur.description
        finally:
            cur.close()


def connect(args, database=None):
    kw = dict(user=args.user, password=args.password)
    if database:
        kw["database"] = database
    if args.socket:
        kw["unix_socket"] = args.socket
    else:
        kw.update(host=args.host, port=args.port)
    if args.driver == "pymysql":
        import pymysql
        return pymysql.connect(autocommit=True, charset="utf8mb4", **kw), pymysql.err.MySQLError
    import mysql.connector
    return (mysql.connector.connect(autocommit=True, use_pure=args.pure, **kw),
            mysql.connector.Error)


def error_code(e):
    return getattr(e, "errno", None) or (e.args[0] if e.args else None)


def insert_sql(table, columns):
    return (f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
            f"({', '.join(['%s'] * len(columns))})")


def check_create(s, c, table):
    s.run(f"DROP TABLE IF EXISTS {table}")
    ddl = f"CREATE TABLE {table} ({', '.join(f'{n} {d}' for n, d in COLUMNS)})"
    s.run(ddl)
    c.ok(f"create table {table} with {len(COLUMNS)} columns")


def check_insert(s, c, table):
    # One row per statement with every column bound, then the NULL row by column list.
    for row_id in (2, 3, 4, 5):
        values = ROWS[row_id]
        _, count, _ = s.run(insert_sql(table, NAMES),
                            (row_id,) + tuple(values.get(n) for n in NAMES[1:]))
        c.equal(f"insert row {row_id}: affected rows", count, 1)
    _, count, _ = s.run(f"INSERT INTO {table} (id) VALUES (%s)", (1,))
    c.equal("insert the NULL row: affected rows", count, 1)


def check_metadata(s, c, table):
    _, _, description = s.run(f"SELECT * FROM {table} WHERE id = %s", (1,))
    c.equal("column names", [d[0] for d in description], NAMES)
    c.equal("column type codes", [d[1] for d in description], [TYPE_CODES[n] for n in NAMES])
    c.equal("column nullability", [bool(d[6]) for d in description],
            [n != "id" for n in NAMES])
    if s.args.driver == "connector":
        # Connector's description carries the column flags (UNSIGNED = 32).
        ints = [k for k, n in enumerate(NAMES) if TYPE_CODES[n] in (1, 2, 3, 8, 9)]
        c.equal("unsigned flags of the integer columns",
                [bool(description[k][7] & 32) for k in ints], [NAMES[k] in UNSIGNED for k in ints])
        # ENUM and SET are STRING columns told apart by a flag; JSON is binary, as in MySQL.
        en, st, js = (description[NAMES.index(n)] for n in ("en", "st", "js"))
        c.equal("ENUM_FLAG and SET_FLAG of en, st, js",
                [(bool(d[7] & ENUM_FLAG), bool(d[7] & SET_FLAG)) for d in (en, st, js)],
                [(True, False), (False, True), (False, False)])
        c.equal("charset of js is binary, of en and st not",
                [d[8] == BINARY_CHARSET for d in (en, st, js)], [False, False, True])


def check_select(s, c, table, expected):
    for row_id in sorted(expected):
        rows, _, _ = s.run(f"SELECT * FROM {table} WHERE id = %s", (row_id,))
        c.equal(f"select row {row_id} by primary key", rows, [expected[row_id]])
    rows, _, _ = s.run(f"SELECT * FROM {table} ORDER BY id")
    c.equal(f"select all {len(expected)} rows ORDER BY id", rows,
            [expected[k] for k in sorted(expected)])


def check_lookups(s, c, table):
    """WHERE with a parameter of each Python type: the driver's encoding must match."""
    probes = [
        ("biu = %s", 18446744073709551615, [3]),
        ("bi = %s", -9223372036854775808, [2]),
        ("iu = %s", 4294967295, [3]),
        ("de = %s", Decimal("-12.50"), [5]),
        ("dw = %s", Decimal("-" + DW_MAX), [2]),
        ("db = %s", 1e300, [3]),
        ("fl = %s", 1.5, [3]),
        ("d = %s", datetime.date(2024, 2, 29), [4]),
        ("dt6 = %s", datetime.datetime(2024, 2, 29, 12, 34, 56, 123456), [4]),
        ("ts = %s", datetime.datetime(2038, 1, 19, 3, 14, 7), [3]),
        ("tm = %s", "-838:59:59", [2]),
        ("tm3 = %s", datetime.timedelta(hours=12, minutes=34, seconds=56,
                                        microseconds=789000), [5]),
        ("vb = %s", b"\x00", [4]),
        ("bn = %s", b"\x00\xff\x01\x7f", [3]),
        ("vc = %s", ROWS[4]["vc"], [4]),
        ("ch = %s", "ab", [5]),
        ("bo = %s", True, [3, 4]),
        ("ts IS NULL", None, [1]),
        ("ti BETWEEN %s AND %s", (-128, 0), [2, 4, 5]),
        ("en = %s", "medium", [4, 5]),
        ("en = %s", "LARGE", [3]),  # the column's collation is case-insensitive
        ("js->>'$.s' = %s", "h\u00e9llo \u65e5\u672c \U0001F600", [3]),
    ]
    for where, param, want in probes:
        params = param if isinstance(param, tuple) else (() if param is None else (param,))
        rows, _, _ = s.run(f"SELECT id FROM {table} WHERE {where} ORDER BY id", params)
        c.equal(f"lookup WHERE {where} {shorten(repr(param), 40)}", rows,
                [(k,) for k in want])


def check_aggregates(s, c, table):
    rows, _, _ = s.run(f"SELECT COUNT(*), COUNT(ts), SUM(i), MIN(d), MAX(dt6), MAX(biu), "
                       f"MIN(de) FROM {table}")
    c.equal("aggregates COUNT/SUM/MIN/MAX", rows,
            [(5, 4, Decimal("-123456790"), datetime.date(1000, 1, 1),
              datetime.datetime(9999, 12, 31, 23, 59, 59, 999999), 18446744073709551615,
              Decimal("-99999999.99"))])


def check_update_delete(s, c, table, expected):
    _, count, _ = s.run(f"UPDATE {table} SET vc = NULL, i = i + 1, de = de + 1, "
                        f"bi = bi - 1 WHERE id = %s", (4,))
    c.equal("update SET NULL, i = i + 1: affected rows", count, 1)
    row4 = list(expected[4])
    row4[NAMES.index("vc")] = None
    row4[NAMES.index("i")] = 1
    row4[NAMES.index("de")] = Decimal("1.00")
    row4[NAMES.index("bi")] = -1
    expected[4] = tuple(row4)

    new_dt6 = datetime.datetime(2024, 2, 29, 0, 0, 0, 500000)
    new_bl = b"\xff\x00\xfe"
    _, count, _ = s.run(f"UPDATE {table} SET dt6 = %s, bl = %s, tm = %s, ch = %s, ti = NULL "
                        f"WHERE id = %s", (new_dt6, new_bl, "-01:02:03", "x", 3))
    c.equal("update with bound values: affected rows", count, 1)
    row3 = list(expected[3])
    row3[NAMES.index("dt6")] = new_dt6
    row3[NAMES.index("bl")] = new_bl
    row3[NAMES.index("tm")] = parse_time("-01:02:03")
    row3[NAMES.index("ch")] = "x"
    row3[NAMES.index("ti")] = None
    expected[3] = tuple(row3)

    _, count, _ = s.run(f"UPDATE {table} SET js = JSON_SET(js, '$.k', %s), en = %s, st = %s "
                        f"WHERE id = %s", ("v\u00e4lue", "small", "blue,green", 3))
    c.equal("update JSON_SET(js, '$.k', ?), ENUM, SET: affected rows", count, 1)
    row3 = list(expected[3])
    row3[NAMES.index("js")] = json_value(JSON_DOC.replace('"n": ', '"k": "v\u00e4lue", "n": '))
    row3[NAMES.index("en")] = "small"
    row3[NAMES.index("st")] = set_value("green,blue")
    expected[3] = tuple(row3)

    _, count, _ = s.run(f"UPDATE {table} SET siu = siu + 1 WHERE id IN (2, 5)")
    c.equal("update siu = siu + 1 on two rows: affected rows", count, 2)
    for k, v in ((2, 1), (5, 40001)):
        row = list(expected[k])
        row[NAMES.index("siu")] = v
        expected[k] = tuple(row)

    _, count, _ = s.run(f"DELETE FROM {table} WHERE id = %s", (5,))
    c.equal("delete one row: affected rows", count, 1)
    del expected[5]
    _, count, _ = s.run(f"DELETE FROM {table} WHERE id = %s", (5,))
    c.equal("delete a missing row: affected rows", count, 0)
    check_select(s, c, table, expected)


def set_autocommit(s, on):
    if s.args.driver == "pymysql":
        s.conn.autocommit(on)
    else:
        s.conn.autocommit = on


def check_multi_row(s, c, table):
    """One INSERT with several rows and a column list; values by parameters."""
    _, count, _ = s.run(f"INSERT INTO {table} (id, vc, d, de) VALUES (%s, %s, %s, %s), "
                        f"(%s, %s, %s, %s), (%s, %s, %s, %s)",
                        (20, "a", datetime.date(2020, 1, 1), Decimal("1.10"),
                         21, "\u00df", None, Decimal("-0.01"),
                         22, "", datetime.date(2021, 12, 31), None))
    c.equal("multi-row INSERT: affected rows", count, 3)
    rows, _, _ = s.run(f"SELECT id, vc, d, de FROM {table} WHERE id >= %s ORDER BY id DESC",
                       (20,))
    c.equal("multi-row INSERT: rows back, ORDER BY id DESC", rows,
            [(22, "", datetime.date(2021, 12, 31), None),
             (21, "\u00df", None, Decimal("-0.01")),
             (20, "a", datetime.date(2020, 1, 1), Decimal("1.10"))])
    rows, _, _ = s.run(f"SELECT id FROM {table} WHERE id >= %s ORDER BY id LIMIT 2", (20,))
    c.equal("ORDER BY id LIMIT 2", rows, [(20,), (21,)])
    _, count, _ = s.run(f"DELETE FROM {table} WHERE id >= %s", (20,))
    c.equal("DELETE WHERE id >= 20: affected rows", count, 3)


def check_executemany(s, c, table):
    """A driver batch: cursor.executemany of one INSERT over many parameter rows (PyMySQL and
    mysql-connector-python's text cursor rewrite it into multi-row INSERTs; the prepared cursor
    executes it once per row), then the same for UPDATE."""
    params = [(100 + i, f"batch {i}", Decimal(i) / 4) for i in range(250)]
    cur = s.cursor()
    try:
        cur.executemany(f"INSERT INTO {table} (id, vc, de) VALUES (%s, %s, %s)", params)
        c.equal("executemany INSERT: affected rows", cur.rowcount, len(params))
        cur.executemany(f"UPDATE {table} SET vc = %s WHERE id = %s",
                        [(f"again {i}", 100 + i) for i in range(0, 250, 5)])
        c.equal("executemany UPDATE: affected rows", cur.rowcount, 50)
    finally:
        cur.close()
    rows, _, _ = s.run(f"SELECT COUNT(*), SUM(id), SUM(de), MIN(vc), MAX(vc) FROM {table} "
                       f"WHERE id >= %s AND id < %s", (100, 350))
    c.equal("executemany: rows back", rows,
            [(250, Decimal(sum(p[0] for p in params)), Decimal("7781.25"), "again 0",
              "batch 99")])
    _, count, _ = s.run(f"DELETE FROM {table} WHERE id >= %s AND id < %s", (100, 350))
    c.equal("executemany: DELETE of the batch", count, 250)


def check_transactions(s, c, table):
    s.run("BEGIN")
    s.run(f"INSERT INTO {table} (id, vc) VALUES (%s, %s)", (10, "rolled back"))
    rows, _, _ = s.run(f"SELECT vc FROM {table} WHERE id = %s", (10,))
    c.equal("BEGIN; INSERT: the row is visible inside", rows, [("rolled back",)])
    s.run("ROLLBACK")
    rows, _, _ = s.run(f"SELECT id FROM {table} WHERE id = %s", (10,))
    c.equal("BEGIN; INSERT; ROLLBACK: the row is absent", rows, [])
    s.run("BEGIN")
    s.run(f"INSERT INTO {table} (id, vc) VALUES (%s, %s)", (11, "committed"))
    s.run("COMMIT")
    rows, _, _ = s.run(f"SELECT id, vc FROM {table} WHERE id = %s", (11,))
    c.equal("BEGIN; INSERT; COMMIT: the row is present", rows, [(11, "committed")])

    # The driver's API: autocommit off, then rollback() / commit().
    set_autocommit(s, False)
    s.run(f"INSERT INTO {table} (id, i) VALUES (%s, %s)", (12, 12))
    s.conn.rollback()
    rows, _, _ = s.run(f"SELECT id FROM {table} WHERE id = %s", (12,))
    c.equal("autocommit off; INSERT; rollback(): the row is absent", rows, [])
    s.run(f"INSERT INTO {table} (id, i) VALUES (%s, %s)", (13, 13))
    s.conn.commit()
    set_autocommit(s, True)
    rows, _, _ = s.run(f"SELECT id, i FROM {table} WHERE id = %s", (13,))
    c.equal("autocommit off; INSERT; commit(): the row is present", rows, [(13, 13)])
    s.run(f"DELETE FROM {table} WHERE id IN (11, 13)")


def check_errors(s, c, table):
    cases = [
        ("duplicate key", f"INSERT INTO {table} (id) VALUES (%s)", (2,), 1062),
        ("TINYINT out of range", f"INSERT INTO {table} (id, ti) VALUES (%s, %s)", (100, 128),
         1264),
        ("TINYINT UNSIGNED below 0", f"INSERT INTO {table} (id, tiu) VALUES (%s, %s)",
         (100, -1), 1264),
        ("BIGINT UNSIGNED below 0", f"INSERT INTO {table} (id, biu) VALUES (%s, %s)",
         (100, -1), 1264),
        ("DECIMAL(10,2) out of range", f"INSERT INTO {table} (id, de) VALUES (%s, %s)",
         (100, Decimal("100000000.00")), 1264),
        ("UPDATE ti = ti + 1 past 127", f"UPDATE {table} SET ti = 127 + 1 WHERE id = %s",
         (2,), 1264),
        ("VARCHAR(100) too long", f"INSERT INTO {table} (id, vc) VALUES (%s, %s)",
         (100, "x" * 101), 1406),
        ("CHAR(10) too long (multibyte)", f"INSERT INTO {table} (id, ch) VALUES (%s, %s)",
         (100, "\U0001F600" * 11), 1406),
        ("BINARY(4) too long", f"INSERT INTO {table} (id, bn) VALUES (%s, %s)",
         (100, b"abcde"), 1406),
        ("BLOB over 65535 bytes", f"INSERT INTO {table} (id, bl) VALUES (%s, %s)",
         (100, b"\x00" * 65536), 1406),
        ("not an ENUM member", f"INSERT INTO {table} (id, en) VALUES (%s, %s)",
         (100, "huge"), 1265),
        ("not a SET member", f"INSERT INTO {table} (id, st) VALUES (%s, %s)",
         (100, "red,purple"), 1265),
        ("invalid JSON text", f"INSERT INTO {table} (id, js) VALUES (%s, %s)",
         (100, "{bad"), 3140),
    ]
    for what, sql, params, code in cases:
        try:
            s.run(sql, params)
            c.fail(f"error {code} ({what})", "the statement succeeded")
        except s.db_error as e:
            if error_code(e) == code:
                c.ok(f"error {code} ({what})")
            else:
                c.fail(f"error {code} ({what})", f"got {e!r}")
    rows, _, _ = s.run(f"SELECT COUNT(*) FROM {table} WHERE id = 100")
    c.equal("failed statements left no row", rows, [(0,)])


def main(argv):
    p = argparse.ArgumentParser(prog="client.py types")
    p.add_argument("--driver", choices=["pymysql", "connector"], required=True)
    p.add_argument("--prepared", action="store_true", help="connector: cursor(prepared=True)")
    p.add_argument("--pure", action="store_true", help="connector: the pure-Python protocol")
    p.add_argument("--table", required=True)
    p.add_argument("--socket")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=3306)
    p.add_argument("--user", required=True)
    p.add_argument("--password", default="")
    args = p.parse_args(argv)
    if args.prepared and args.driver != "connector":
        p.error("--prepared needs --driver connector")
    if args.prepared and not args.pure:
        # Its C extension's prepared cursor binds Python floats as 4-byte FLOATs (1e300
        # becomes inf) and reports every server error as errno -1: nothing to compare.
        p.error("--prepared needs --pure (the C extension's prepared cursor loses data)")
    global time_sign_on_days_only, set_as_python_set, json_as_bytes
    time_sign_on_days_only = args.prepared
    set_as_python_set = args.driver == "connector" and not args.prepared
    json_as_bytes = args.driver == "connector" and args.prepared
    setup, _ = connect(args)
    mode = "prepared" if args.prepared else "text"
    if args.driver == "connector":
        # Without --pure the driver takes its C extension when it loads.
        mode += " c-ext" if type(setup).__name__ == "CMySQLConnection" else " pure"
    c = Checker(f"{args.driver} {mode}")
    cur = setup.cursor()
    cur.execute(f"CREATE DATABASE IF NOT EXISTS {DATABASE}")
    cur.close()
    setup.close()

    s = Session(args)
    table = args.table
    expected = {k: expected_row(k, v) for k, v in ROWS.items()}
    steps = [
        lambda: check_create(s, c, table),
        lambda: check_insert(s, c, table),
        lambda: check_metadata(s, c, table),
        lambda: check_select(s, c, table, expected),
        lambda: check_lookups(s, c, table),
        lambda: check_aggregates(s, c, table),
        lambda: check_update_delete(s, c, table, expected),
        lambda: check_multi_row(s, c, table),
        lambda: check_executemany(s, c, table),
        lambda: check_transactions(s, c, table),
        lambda: check_errors(s, c, table),
        lambda: s.run(f"DROP TABLE {table}"),
    ]
    for step in steps:
        try:
            step()
        except Exception as e:  # a driver error where none was expected
            c.fail("unexpected error", repr(e))
            try:
                s.conn.close()
            except Exception:
                pass
            s = Session(args)  # the next step gets a fresh connection
    s.conn.close()
    if c.failures:
        print(f"FAIL: types {c.label}: {len(c.failures)} of "
              f"{c.passed + len(c.failures)} checks failed: {'; '.join(c.failures)}",
              file=sys.stderr)
        return 1
    print(f"ok: types {c.label}: {c.passed} checks")
    return 0
