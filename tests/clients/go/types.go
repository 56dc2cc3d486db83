// Every column type through go-sql-driver/mysql: a table with one column of each type Shoal
// supports, edge values inserted with bound arguments (interpolated text, or server-side
// prepared statements), read back into `any` and compared, Go type included, with what the
// driver gives against MySQL; typed lookups (an ENUM member, a JSON path), aggregates, UPDATE
// (SET NULL, col = col + 1, JSON_SET), DELETE, transactions (SQL and the database/sql API)
// and the errors 1062, 1264, 1265, 1406 and 3140. ENUM, SET and JSON come back as []byte in
// both protocols (MySQL sends ENUM and SET as STRING with a flag, JSON as type 245).
//
//	mysqlclient types -dsn 'app:secret@unix(/tmp/r.sock)/' -table t [-interpolate]
//
// Prints "ok: <check>" per passing check and "FAIL: <check>: ..." on stderr per mismatch;
// exits 1 if anything failed. The last line on success is "ok: types go <mode>: N checks".
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

const typesDatabase = "drivers"

// The same table as the Python and Java clients.
var typeColumns = [][2]string{
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
}

// What ColumnType.DatabaseTypeName gives for each column.
var typeNames = []string{
	"INT", "TINYINT", "UNSIGNED TINYINT", "SMALLINT", "UNSIGNED SMALLINT", "MEDIUMINT",
	"UNSIGNED MEDIUMINT", "INT", "UNSIGNED INT", "BIGINT", "UNSIGNED BIGINT", "FLOAT", "DOUBLE",
	"DECIMAL", "DECIMAL", "CHAR", "VARCHAR", "BINARY", "VARBINARY", "TEXT", "TEXT", "BLOB", "BLOB",
	"DATE", "TIME", "TIME", "DATETIME", "DATETIME", "TIMESTAMP", "TIMESTAMP", "TINYINT",
	"ENUM", "SET", "JSON",
}

// jsonDoc is in MySQL's canonical text (keys by length, then bytes; ", " and ": "), so it reads
// back as written: utf8mb4 unescaped, escapes, numbers, literals, empty containers.
const jsonDoc = `{"f": false, "n": 1.5, "s": "héllo 日本 😀", "t": true, "z": null, "arr": [], ` +
	`"obj": {}, "nested": {"e": "q\"b\\s\n", "list": [1, -2, 3.25, "x", [null]]}}`

func columnNames() []string {
	names := make([]string, len(typeColumns))
	for i, c := range typeColumns {
		names[i] = c[0]
	}
	return names
}

func columnIndex(name string) int {
	for i, c := range typeColumns {
		if c[0] == name {
			return i
		}
	}
	panic("no column " + name)
}

// show renders a value as the driver returned it, Go type included.
func show(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case int64:
		return fmt.Sprintf("int64(%d)", x)
	case uint64:
		return fmt.Sprintf("uint64(%d)", x)
	case float32:
		return "float32(" + strconv.FormatFloat(float64(x), 'g', -1, 32) + ")"
	case float64:
		return "float64(" + strconv.FormatFloat(x, 'g', -1, 64) + ")"
	case []byte:
		return fmt.Sprintf("[]byte(%q)", x)
	case string:
		return fmt.Sprintf("string(%q)", x)
	case time.Time:
		return "time(" + x.Format("2006-01-02 15:04:05.999999999 MST") + ")"
	default:
		return fmt.Sprintf("%T(%v)", v, v)
	}
}

func shorten(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	return fmt.Sprintf("%s...(%d bytes)", s[:limit], len(s))
}

// cell is one column of one row: what the client binds and what it expects back.
type cell struct {
	arg  any
	want string
}

type rowSpec struct {
	id    int64
	cells map[string]cell
}

// typesCase holds the expectations of one mode (text or prepared).
type typesCase struct {
	prepared bool
}

func (m typesCase) i(v int64) cell     { return cell{v, show(v)} }
func (m typesCase) f32(v float32) cell { return cell{v, show(v)} }
func (m typesCase) f64(v float64) cell { return cell{v, show(v)} }
func (m typesCase) str(v string) cell  { return cell{v, show([]byte(v))} }
func (m typesCase) bin(v []byte) cell  { return cell{v, show(v)} }

// u is an unsigned integer column below BIGINT: always int64 back.
func (m typesCase) u(v uint64) cell { return cell{v, show(int64(v))} }

// ubig is BIGINT UNSIGNED: the text protocol gives uint64, the binary one int64 when it fits
// and the decimal digits as []byte when it does not.
func (m typesCase) ubig(v uint64) cell {
	if !m.prepared {
		return cell{v, show(v)}
	}
	if v > math.MaxInt64 {
		return cell{v, show([]byte(strconv.FormatUint(v, 10)))}
	}
	return cell{v, show(int64(v))}
}

// text binds a string and expects MySQL's text of the value back: an ENUM member in its
// declared case, a SET's members in declared order, a JSON document in canonical form.
func (m typesCase) text(bind, back string) cell { return cell{bind, show([]byte(back))} }

// dec binds a DECIMAL as its text and expects that text back.
func (m typesCase) dec(bind, back string) cell { return cell{bind, show([]byte(back))} }

// tim binds TIME as text; the driver returns TIME as text in both protocols.
func (m typesCase) tim(bind, back string) cell { return cell{bind, show([]byte(back))} }

func ts(year int, month time.Month, day, h, mi, s, micro int) time.Time {
	return time.Date(year, month, day, h, mi, s, micro*1000, time.UTC)
}

func (m typesCase) t(v time.Time) cell { return cell{v, show(v)} }

// tOf binds `bind` and expects `back` (a DATE gets a time.Time at midnight).
func (m typesCase) tOf(bind any, back time.Time) cell { return cell{bind, show(back)} }

func (m typesCase) b(v bool) cell {
	n := int64(0)
	if v {
		n = 1
	}
	return cell{v, show(n)}
}

var dwMax = strings.Repeat("9", 35) + "." + strings.Repeat("9", 30)

func blobMax() []byte {
	out := make([]byte, 0, 65535)
	for len(out) < 65535 {
		out = append(out, byte(len(out)%256))
	}
	return out
}

func byteRange(n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = byte(i % 256)
	}
	return out
}

func (m typesCase) rows() []rowSpec {
	vc4 := "日本語テキスト 😀🎉 café"
	return []rowSpec{
		{1, map[string]cell{}},
		{2, map[string]cell{
			"ti": m.i(-128), "tiu": m.u(0), "si": m.i(-32768), "siu": m.u(0),
			"mi": m.i(-8388608), "miu": m.u(0), "i": m.i(-2147483648), "iu": m.u(0),
			"bi": m.i(math.MinInt64), "biu": m.ubig(0), "fl": m.f32(-0.25),
			"db": m.f64(-1.7976931348623157e308), "de": m.dec("-99999999.99", "-99999999.99"),
			"dw": m.dec("-"+dwMax, "-"+dwMax), "ch": m.str(""), "vc": m.str(""),
			"bn": cell{[]byte{}, show([]byte{0, 0, 0, 0})}, "vb": m.bin([]byte{}),
			"tx": m.str(""), "mt": m.str(""), "bl": m.bin([]byte{}), "lb": m.bin([]byte{}),
			"d": m.t(ts(1000, 1, 1, 0, 0, 0, 0)), "tm": m.tim("-838:59:59", "-838:59:59"),
			"tm3": m.tim("-12:34:56.789", "-12:34:56.789"), "dt": m.t(ts(1000, 1, 1, 0, 0, 0, 0)),
			"dt6": m.tOf("1000-01-01 00:00:00.000000", ts(1000, 1, 1, 0, 0, 0, 0)),
			"ts":  m.t(ts(1970, 1, 1, 0, 0, 1, 0)), "ts6": m.t(ts(1970, 1, 1, 0, 0, 1, 0)),
			"bo": m.b(false), "en": m.str("small"), "st": m.str(""), "js": m.str("[]"),
		}},
		{3, map[string]cell{
			"ti": m.i(127), "tiu": m.u(255), "si": m.i(32767), "siu": m.u(65535),
			"mi": m.i(8388607), "miu": m.u(16777215), "i": m.i(2147483647), "iu": m.u(4294967295),
			"bi": m.i(math.MaxInt64), "biu": m.ubig(math.MaxUint64), "fl": m.f32(1.5),
			"db": m.f64(1e300), "de": m.dec("99999999.99", "99999999.99"),
			"dw": m.dec(dwMax, dwMax), "ch": m.str("abcdefghij"), "vc": m.str("hello, world"),
			"bn": m.bin([]byte{0, 0xff, 1, 0x7f}),
			"vb": m.bin([]byte("\x00\xff'\\\"\n\x1a\r")), "tx": m.str(strings.Repeat("x", 65535)),
			"mt": m.str("日本語"), "bl": m.bin(blobMax()), "lb": m.bin(byteRange(256)),
			"d": m.t(ts(9999, 12, 31, 0, 0, 0, 0)), "tm": m.tim("838:59:59", "838:59:59"),
			"tm3": m.tim("838:59:59.000", "838:59:59.000"),
			"dt":  m.t(ts(9999, 12, 31, 23, 59, 59, 0)),
			"dt6": m.t(ts(9999, 12, 31, 23, 59, 59, 999999)),
			"ts":  m.t(ts(2038, 1, 19, 3, 14, 7, 0)), "ts6": m.t(ts(2038, 1, 19, 3, 14, 7, 999999)),
			"bo": m.b(true), "en": m.str("large"), "st": m.str("red,green,blue"),
			"js": m.str(jsonDoc),
		}},
		{4, map[string]cell{
			"ti": m.i(0), "tiu": m.u(0), "si": m.i(0), "siu": m.u(0), "mi": m.i(0), "miu": m.u(0),
			"i": m.i(0), "iu": m.u(0), "bi": m.i(0), "biu": m.ubig(0), "fl": m.f32(0),
			"db": m.f64(0), "de": m.dec("0.00", "0.00"),
			"dw": m.dec("0", "0."+strings.Repeat("0", 30)), "ch": m.str("héllo 日本"),
			"vc": m.str(vc4), "bn": m.bin([]byte{0xff, 0xff, 0xff, 0xff}), "vb": m.bin([]byte{0}),
			"tx": m.str("emoji 😀 CJK 中文 한국어\nnew line\ttab"), "mt": m.str(""),
			"bl": m.bin([]byte{0, 0xff}), "lb": m.bin([]byte{}),
			"d": m.t(ts(2024, 2, 29, 0, 0, 0, 0)), "tm": m.tim("00:00:00", "00:00:00"),
			"tm3": m.tim("00:00:00", "00:00:00.000"), "dt": m.t(ts(2024, 2, 29, 0, 0, 0, 0)),
			"dt6": m.t(ts(2024, 2, 29, 12, 34, 56, 123456)),
			"ts":  m.t(ts(2024, 2, 29, 12, 34, 56, 0)),
			"ts6": m.t(ts(2024, 2, 29, 12, 34, 56, 654321)), "bo": m.b(true),
			"en": m.text("MEDIUM", "medium"), "st": m.text("blue,red", "red,blue"),
			"js": m.str(`"x"`),
		}},
		{5, map[string]cell{
			"ti": m.i(-1), "tiu": m.u(200), "si": m.i(-300), "siu": m.u(40000),
			"mi": m.i(-70000), "miu": m.u(9000000), "i": m.i(-123456789), "iu": m.u(3000000000),
			"bi": m.i(-1234567890123456789), "biu": m.ubig(9223372036854775808),
			"fl": m.f32(-1024.5), "db": m.f64(0.1), "de": m.dec("-12.50", "-12.50"),
			"dw":  m.dec("-0."+strings.Repeat("0", 29)+"1", "-0."+strings.Repeat("0", 29)+"1"),
			"ch":  cell{"ab  ", show([]byte("ab"))},
			"vc":  m.str(`it's "quoted" \ back\slash`),
			"bn":  cell{[]byte("ab"), show([]byte("ab\x00\x00"))},
			"vb":  m.bin([]byte(`\'"`)),
			"tx":  m.str("line1\r\nline2 \x00 nul"),
			"mt":  m.str(strings.Repeat("z", 1000)),
			"bl":  m.bin([]byte(`'\`)),
			"lb":  m.bin(byteRange(2560)),
			"d":   m.t(ts(2000, 1, 1, 0, 0, 0, 0)),
			"tm":  m.tim("-00:00:01", "-00:00:01"),
			"tm3": m.tim("12:34:56.789", "12:34:56.789"),
			"dt":  m.t(ts(2024, 2, 29, 23, 59, 59, 0)),
			"dt6": m.t(ts(2000, 1, 1, 0, 0, 0, 1)),
			"ts":  m.t(ts(2000, 1, 1, 0, 0, 0, 0)),
			"ts6": m.tOf("2000-01-01 00:00:00.5", ts(2000, 1, 1, 0, 0, 0, 500000)),
			"bo":  m.b(false),
			"en":  m.str("medium"),
			"st":  m.str("green"),
			// Not canonical: MySQL sorts the keys and rewrites the numbers and the escape.
			"js": m.text(`{"b":1,"a":[1.50,1E2,"\u00e9"],"":0}`,
				`{"": 0, "a": [1.5, 100.0, "é"], "b": 1}`),
		}},
	}
}

// want is the row as the driver should return it, one rendered value per column.
func (r rowSpec) want() []string {
	out := []string{show(r.id)}
	for _, name := range columnNames()[1:] {
		if c, ok := r.cells[name]; ok {
			out = append(out, c.want)
		} else {
			out = append(out, "nil")
		}
	}
	return out
}

type typesRun struct {
	ctx      context.Context
	conn     *sql.Conn
	prepared bool
	table    string
	passed   int
	failures []string
}

func (t *typesRun) ok(what string) {
	t.passed++
	fmt.Println("ok:", what)
}

func (t *typesRun) fail(what, detail string) {
	t.failures = append(t.failures, what)
	fmt.Fprintf(os.Stderr, "FAIL: %s: %s\n", what, detail)
}

// querier is a *sql.Conn or a *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}

// query runs a SELECT; in prepared mode always as a server-side prepared statement (the
// driver sends statements without arguments as text otherwise).
func (t *typesRun) query(q querier, sqlText string,
	args ...any) ([][]any, []*sql.ColumnType, error) {
	var rows *sql.Rows
	var err error
	if t.prepared {
		stmt, perr := q.PrepareContext(t.ctx, sqlText)
		if perr != nil {
			return nil, nil, perr
		}
		defer stmt.Close()
		rows, err = stmt.QueryContext(t.ctx, args...)
	} else {
		rows, err = q.QueryContext(t.ctx, sqlText, args...)
	}
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, nil, err
	}
	var out [][]any
	for rows.Next() {
		values := make([]any, len(types))
		ptrs := make([]any, len(types))
		for i := range values {
			ptrs[i] = &values[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, err
		}
		out = append(out, values)
	}
	return out, types, rows.Err()
}

// exec runs a statement with arguments; prepared mode prepares it explicitly.
func (t *typesRun) exec(q querier, sqlText string, args ...any) (int64, error) {
	var res sql.Result
	var err error
	if t.prepared {
		stmt, perr := q.PrepareContext(t.ctx, sqlText)
		if perr != nil {
			return 0, perr
		}
		defer stmt.Close()
		res, err = stmt.ExecContext(t.ctx, args...)
	} else {
		res, err = q.ExecContext(t.ctx, sqlText, args...)
	}
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func render(rows [][]any) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		for _, v := range r {
			out[i] = append(out[i], show(v))
		}
	}
	return out
}

// compareRows checks rendered rows against expected ones, naming each differing column.
func (t *typesRun) compareRows(what string, got [][]any, err error, want [][]string) {
	if err != nil {
		t.fail(what, err.Error())
		return
	}
	g := render(got)
	if len(g) != len(want) {
		t.fail(what, fmt.Sprintf("expected %d rows, got %d: %s", len(want), len(g),
			shorten(fmt.Sprint(g), 400)))
		return
	}
	var diffs []string
	for r := range want {
		if len(g[r]) != len(want[r]) {
			diffs = append(diffs, fmt.Sprintf("row %d: %d columns, expected %d", r, len(g[r]),
				len(want[r])))
			continue
		}
		for c := range want[r] {
			if g[r][c] != want[r][c] {
				name := strconv.Itoa(c)
				if len(want[r]) == len(typeColumns) {
					name = typeColumns[c][0]
				}
				diffs = append(diffs, fmt.Sprintf("row %d %s: expected %s, got %s", r, name,
					shorten(want[r][c], 120), shorten(g[r][c], 120)))
			}
		}
	}
	if len(diffs) > 0 {
		t.fail(what, strings.Join(diffs, "; "))
		return
	}
	t.ok(what)
}

func (t *typesRun) equal(what string, got, want any) {
	if fmt.Sprint(got) == fmt.Sprint(want) {
		t.ok(what)
		return
	}
	t.fail(what, fmt.Sprintf("expected %v, got %v", want, got))
}

func (t *typesRun) affected(what string, n int64, err error, want int64) {
	if err != nil {
		t.fail(what, err.Error())
		return
	}
	t.equal(what, n, want)
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

func (t *typesRun) create() {
	if _, err := t.conn.ExecContext(t.ctx, "DROP TABLE IF EXISTS "+t.table); err != nil {
		t.fail("drop table", err.Error())
	}
	var defs []string
	for _, c := range typeColumns {
		defs = append(defs, c[0]+" "+c[1])
	}
	ddl := fmt.Sprintf("CREATE TABLE %s (%s)", t.table, strings.Join(defs, ", "))
	if _, err := t.conn.ExecContext(t.ctx, ddl); err != nil {
		t.fail("create table", err.Error())
		return
	}
	t.ok(fmt.Sprintf("create table %s with %d columns", t.table, len(typeColumns)))
}

func (t *typesRun) insert(rows []rowSpec) {
	names := columnNames()
	insert := fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", t.table, strings.Join(names, ", "),
		placeholders(len(names)))
	for _, r := range rows[1:] {
		args := []any{r.id}
		for _, name := range names[1:] {
			args = append(args, r.cells[name].arg)
		}
		n, err := t.exec(t.conn, insert, args...)
		t.affected(fmt.Sprintf("insert row %d: affected rows", r.id), n, err, 1)
	}
	n, err := t.exec(t.conn, "INSERT INTO "+t.table+" (id) VALUES (?)", rows[0].id)
	t.affected("insert the NULL row: affected rows", n, err, 1)
}

func (t *typesRun) metadata() {
	_, types, err := t.query(t.conn, "SELECT * FROM "+t.table+" WHERE id = ?", 1)
	if err != nil {
		t.fail("column metadata", err.Error())
		return
	}
	var names, dbTypes, nullable, sizes, scanTypes []string
	for _, ct := range types {
		names = append(names, ct.Name())
		dbTypes = append(dbTypes, ct.DatabaseTypeName())
		switch ct.Name() {
		case "en", "st", "js":
			scanTypes = append(scanTypes, ct.Name()+":"+ct.ScanType().String())
		}
		n, ok := ct.Nullable()
		nullable = append(nullable, fmt.Sprintf("%v/%v", n, ok))
		if p, s, ok := ct.DecimalSize(); ok {
			sizes = append(sizes, fmt.Sprintf("%s(%d,%d)", ct.Name(), p, s))
		}
	}
	t.equal("column names", names, columnNames())
	t.equal("column DatabaseTypeName", dbTypes, typeNames)
	t.equal("ScanType of en, st, js", scanTypes,
		[]string{"en:sql.NullString", "st:sql.NullString", "js:sql.NullString"})
	var wantNullable []string
	for _, c := range typeColumns {
		wantNullable = append(wantNullable, fmt.Sprintf("%v/true", c[0] != "id"))
	}
	t.equal("column Nullable", nullable, wantNullable)
	m := int64(math.MaxInt64)
	t.equal("column DecimalSize", sizes, []string{
		fmt.Sprintf("fl(%d,%d)", m, m), fmt.Sprintf("db(%d,%d)", m, m), "de(10,2)", "dw(65,30)",
		"tm(0,0)", "tm3(3,3)", "dt(0,0)", "dt6(6,6)", "ts(0,0)", "ts6(6,6)"})
}

func (t *typesRun) selectAll(expected map[int64][]string) {
	var ids []int64
	for id := int64(1); id <= 20; id++ {
		if _, ok := expected[id]; ok {
			ids = append(ids, id)
		}
	}
	var all [][]string
	for _, id := range ids {
		got, _, err := t.query(t.conn, "SELECT * FROM "+t.table+" WHERE id = ?", id)
		t.compareRows(fmt.Sprintf("select row %d by primary key", id), got, err,
			[][]string{expected[id]})
		all = append(all, expected[id])
	}
	got, _, err := t.query(t.conn, "SELECT * FROM "+t.table+" ORDER BY id")
	t.compareRows(fmt.Sprintf("select all %d rows ORDER BY id", len(ids)), got, err, all)
}

func (t *typesRun) lookups() {
	type probe struct {
		where string
		args  []any
		want  []int64
	}
	probes := []probe{
		{"biu = ?", []any{uint64(math.MaxUint64)}, []int64{3}},
		{"bi = ?", []any{int64(math.MinInt64)}, []int64{2}},
		{"iu = ?", []any{uint64(4294967295)}, []int64{3}},
		{"de = ?", []any{"-12.50"}, []int64{5}},
		{"dw = ?", []any{"-" + dwMax}, []int64{2}},
		{"db = ?", []any{1e300}, []int64{3}},
		{"fl = ?", []any{float32(1.5)}, []int64{3}},
		{"d = ?", []any{ts(2024, 2, 29, 0, 0, 0, 0)}, []int64{4}},
		{"dt6 = ?", []any{ts(2024, 2, 29, 12, 34, 56, 123456)}, []int64{4}},
		{"ts = ?", []any{ts(2038, 1, 19, 3, 14, 7, 0)}, []int64{3}},
		{"tm = ?", []any{"-838:59:59"}, []int64{2}},
		{"tm3 = ?", []any{"12:34:56.789"}, []int64{5}},
		{"vb = ?", []any{[]byte{0}}, []int64{4}},
		{"bn = ?", []any{[]byte{0, 0xff, 1, 0x7f}}, []int64{3}},
		{"vc = ?", []any{"日本語テキスト 😀🎉 café"}, []int64{4}},
		{"ch = ?", []any{"ab"}, []int64{5}},
		{"bo = ?", []any{true}, []int64{3, 4}},
		{"ts IS NULL", nil, []int64{1}},
		{"ti BETWEEN ? AND ?", []any{-128, 0}, []int64{2, 4, 5}},
		{"en = ?", []any{"medium"}, []int64{4, 5}},
		{"en = ?", []any{"LARGE"}, []int64{3}}, // the column's collation is case-insensitive
		{"js->>'$.s' = ?", []any{"héllo 日本 😀"}, []int64{3}},
	}
	for _, p := range probes {
		got, _, err := t.query(t.conn, "SELECT id FROM "+t.table+" WHERE "+p.where+
			" ORDER BY id", p.args...)
		var want [][]string
		for _, id := range p.want {
			want = append(want, []string{show(id)})
		}
		t.compareRows(fmt.Sprintf("lookup WHERE %s %s", p.where, shorten(fmt.Sprint(p.args), 40)),
			got, err, want)
	}
}

func (t *typesRun) aggregates() {
	got, _, err := t.query(t.conn, "SELECT COUNT(*), COUNT(ts), SUM(i), MIN(d), MAX(dt6), "+
		"MAX(biu), MIN(de) FROM "+t.table)
	maxBiu := show(uint64(math.MaxUint64))
	if t.prepared {
		maxBiu = show([]byte("18446744073709551615"))
	}
	t.compareRows("aggregates COUNT/SUM/MIN/MAX", got, err, [][]string{{
		show(int64(5)), show(int64(4)), show([]byte("-123456790")),
		show(ts(1000, 1, 1, 0, 0, 0, 0)), show(ts(9999, 12, 31, 23, 59, 59, 999999)), maxBiu,
		show([]byte("-99999999.99"))}})
}

func (t *typesRun) updateDelete(expected map[int64][]string) {
	set := func(id int64, col string, v string) { expected[id][columnIndex(col)] = v }
	n, err := t.exec(t.conn, "UPDATE "+t.table+" SET vc = NULL, i = i + 1, de = de + 1, "+
		"bi = bi - 1 WHERE id = ?", 4)
	t.affected("update SET NULL, i = i + 1: affected rows", n, err, 1)
	set(4, "vc", "nil")
	set(4, "i", show(int64(1)))
	set(4, "de", show([]byte("1.00")))
	set(4, "bi", show(int64(-1)))

	newDt6 := ts(2024, 2, 29, 0, 0, 0, 500000)
	n, err = t.exec(t.conn, "UPDATE "+t.table+" SET dt6 = ?, bl = ?, tm = ?, ch = ?, ti = NULL "+
		"WHERE id = ?", newDt6, []byte{0xff, 0, 0xfe}, "-01:02:03", "x", 3)
	t.affected("update with bound values: affected rows", n, err, 1)
	set(3, "dt6", show(newDt6))
	set(3, "bl", show([]byte{0xff, 0, 0xfe}))
	set(3, "tm", show([]byte("-01:02:03")))
	set(3, "ch", show([]byte("x")))
	set(3, "ti", "nil")

	n, err = t.exec(t.conn, "UPDATE "+t.table+" SET js = JSON_SET(js, '$.k', ?), en = ?, "+
		"st = ? WHERE id = ?", "välue", "small", "blue,green", 3)
	t.affected("update JSON_SET(js, '$.k', ?), ENUM, SET: affected rows", n, err, 1)
	set(3, "js", show([]byte(strings.Replace(jsonDoc, `"n": `, `"k": "välue", "n": `, 1))))
	set(3, "en", show([]byte("small")))
	set(3, "st", show([]byte("green,blue")))

	n, err = t.exec(t.conn, "UPDATE "+t.table+" SET siu = siu + 1 WHERE id IN (2, 5)")
	t.affected("update siu = siu + 1 on two rows: affected rows", n, err, 2)
	set(2, "siu", show(int64(1)))
	set(5, "siu", show(int64(40001)))

	n, err = t.exec(t.conn, "DELETE FROM "+t.table+" WHERE id = ?", 5)
	t.affected("delete one row: affected rows", n, err, 1)
	delete(expected, 5)
	n, err = t.exec(t.conn, "DELETE FROM "+t.table+" WHERE id = ?", 5)
	t.affected("delete a missing row: affected rows", n, err, 0)
	t.selectAll(expected)
}

// multiRow is one INSERT with several rows and a column list.
func (t *typesRun) multiRow() {
	n, err := t.exec(t.conn, "INSERT INTO "+t.table+" (id, vc, d, de) VALUES (?, ?, ?, ?), "+
		"(?, ?, ?, ?), (?, ?, ?, ?)",
		20, "a", ts(2020, 1, 1, 0, 0, 0, 0), "1.10",
		21, "ß", nil, "-0.01",
		22, "", ts(2021, 12, 31, 0, 0, 0, 0), nil)
	t.affected("multi-row INSERT: affected rows", n, err, 3)
	got, _, err := t.query(t.conn, "SELECT id, vc, d, de FROM "+t.table+" WHERE id >= ? "+
		"ORDER BY id DESC", 20)
	t.compareRows("multi-row INSERT: rows back, ORDER BY id DESC", got, err, [][]string{
		{show(int64(22)), show([]byte("")), show(ts(2021, 12, 31, 0, 0, 0, 0)), "nil"},
		{show(int64(21)), show([]byte("ß")), "nil", show([]byte("-0.01"))},
		{show(int64(20)), show([]byte("a")), show(ts(2020, 1, 1, 0, 0, 0, 0)), show([]byte("1.10"))},
	})
	got, _, err = t.query(t.conn, "SELECT id FROM "+t.table+" WHERE id >= ? ORDER BY id LIMIT 2",
		20)
	t.compareRows("ORDER BY id LIMIT 2", got, err,
		[][]string{{show(int64(20))}, {show(int64(21))}})
	n, err = t.exec(t.conn, "DELETE FROM "+t.table+" WHERE id >= ?", 20)
	t.affected("DELETE WHERE id >= 20: affected rows", n, err, 3)
}

// batches is what Go programs do for lack of a batch API: one INSERT of 250 rows built with
// 500 placeholders (a server-side prepared statement, or text with -interpolate), and a
// statement prepared in a transaction and executed per row.
func (t *typesRun) batches() {
	args := make([]any, 0, 500)
	values := make([]string, 0, 250)
	for i := 0; i < 250; i++ {
		args = append(args, 100+i, fmt.Sprintf("batch %d", i))
		values = append(values, "(?, ?)")
	}
	n, err := t.exec(t.conn, "INSERT INTO "+t.table+" (id, vc) VALUES "+
		strings.Join(values, ", "), args...)
	t.affected("250-row INSERT with 500 placeholders: affected rows", n, err, 250)
	tx, err := t.conn.BeginTx(t.ctx, nil)
	if err != nil {
		t.fail("BeginTx for a prepared batch", err.Error())
		return
	}
	stmt, err := tx.PrepareContext(t.ctx, "INSERT INTO "+t.table+" (id, vc) VALUES (?, ?)")
	if err != nil {
		t.fail("Prepare in a transaction", err.Error())
		_ = tx.Rollback()
		return
	}
	for i := 0; i < 250; i++ {
		if _, err := stmt.ExecContext(t.ctx, 350+i, fmt.Sprintf("batch %d", 250+i)); err != nil {
			t.fail("prepared batch: Exec", err.Error())
			break
		}
	}
	stmt.Close()
	if err := tx.Commit(); err != nil {
		t.fail("prepared batch: Commit", err.Error())
	}
	got, _, err := t.query(t.conn, "SELECT COUNT(*), SUM(id), MAX(vc) FROM "+t.table+
		" WHERE id >= ? AND id < ?", 100, 600)
	t.compareRows("batches: rows back", got, err,
		[][]string{{show(int64(500)), show([]byte("174750")), show([]byte("batch 99"))}})
	n, err = t.exec(t.conn, "DELETE FROM "+t.table+" WHERE id >= ? AND id < ?", 100, 600)
	t.affected("batches: DELETE", n, err, 500)
}

func (t *typesRun) transactions() {
	mustExec := func(sqlText string, args ...any) {
		if _, err := t.exec(t.conn, sqlText, args...); err != nil {
			t.fail(sqlText, err.Error())
		}
	}
	selectIDs := func(id int64) ([][]any, error) {
		rows, _, err := t.query(t.conn, "SELECT id FROM "+t.table+" WHERE id = ?", id)
		return rows, err
	}
	mustExec("BEGIN")
	mustExec("INSERT INTO "+t.table+" (id, vc) VALUES (?, ?)", 10, "rolled back")
	got, _, err := t.query(t.conn, "SELECT vc FROM "+t.table+" WHERE id = ?", 10)
	t.compareRows("BEGIN; INSERT: the row is visible inside", got, err,
		[][]string{{show([]byte("rolled back"))}})
	mustExec("ROLLBACK")
	got, err = selectIDs(10)
	t.compareRows("BEGIN; INSERT; ROLLBACK: the row is absent", got, err, nil)
	mustExec("BEGIN")
	mustExec("INSERT INTO "+t.table+" (id, vc) VALUES (?, ?)", 11, "committed")
	mustExec("COMMIT")
	got, err = selectIDs(11)
	t.compareRows("BEGIN; INSERT; COMMIT: the row is present", got, err,
		[][]string{{show(int64(11))}})

	// database/sql's own transactions: BeginTx, then Rollback or Commit.
	for _, commit := range []bool{false, true} {
		id := int64(12)
		what := "BeginTx; INSERT; Rollback(): the row is absent"
		if commit {
			id = 13
			what = "BeginTx; INSERT; Commit(): the row is present"
		}
		tx, err := t.conn.BeginTx(t.ctx, nil)
		if err != nil {
			t.fail(what, err.Error())
			continue
		}
		if _, err := t.exec(tx, "INSERT INTO "+t.table+" (id, i) VALUES (?, ?)", id, id); err != nil {
			t.fail(what, err.Error())
		}
		if commit {
			err = tx.Commit()
		} else {
			err = tx.Rollback()
		}
		if err != nil {
			t.fail(what, err.Error())
			continue
		}
		got, err = selectIDs(id)
		var want [][]string
		if commit {
			want = [][]string{{show(id)}}
		}
		t.compareRows(what, got, err, want)
	}
	mustExec("DELETE FROM " + t.table + " WHERE id IN (11, 13)")
}

func (t *typesRun) errorCodes() {
	type errCase struct {
		what string
		sql  string
		args []any
		code uint16
	}
	table := t.table
	cases := []errCase{
		{"duplicate key", "INSERT INTO " + table + " (id) VALUES (?)", []any{2}, 1062},
		{"TINYINT out of range", "INSERT INTO " + table + " (id, ti) VALUES (?, ?)",
			[]any{100, 128}, 1264},
		{"TINYINT UNSIGNED below 0", "INSERT INTO " + table + " (id, tiu) VALUES (?, ?)",
			[]any{100, -1}, 1264},
		{"BIGINT UNSIGNED below 0", "INSERT INTO " + table + " (id, biu) VALUES (?, ?)",
			[]any{100, -1}, 1264},
		{"DECIMAL(10,2) out of range", "INSERT INTO " + table + " (id, de) VALUES (?, ?)",
			[]any{100, "100000000.00"}, 1264},
		{"UPDATE ti = 127 + 1", "UPDATE " + table + " SET ti = 127 + 1 WHERE id = ?",
			[]any{2}, 1264},
		{"VARCHAR(100) too long", "INSERT INTO " + table + " (id, vc) VALUES (?, ?)",
			[]any{100, strings.Repeat("x", 101)}, 1406},
		{"CHAR(10) too long (multibyte)", "INSERT INTO " + table + " (id, ch) VALUES (?, ?)",
			[]any{100, strings.Repeat("😀", 11)}, 1406},
		{"BINARY(4) too long", "INSERT INTO " + table + " (id, bn) VALUES (?, ?)",
			[]any{100, []byte("abcde")}, 1406},
		{"BLOB over 65535 bytes", "INSERT INTO " + table + " (id, bl) VALUES (?, ?)",
			[]any{100, make([]byte, 65536)}, 1406},
		{"not an ENUM member", "INSERT INTO " + table + " (id, en) VALUES (?, ?)",
			[]any{100, "huge"}, 1265},
		{"not a SET member", "INSERT INTO " + table + " (id, st) VALUES (?, ?)",
			[]any{100, "red,purple"}, 1265},
		{"invalid JSON text", "INSERT INTO " + table + " (id, js) VALUES (?, ?)",
			[]any{100, "{bad"}, 3140},
	}
	for _, c := range cases {
		what := fmt.Sprintf("error %d (%s)", c.code, c.what)
		_, err := t.exec(t.conn, c.sql, c.args...)
		var myErr *mysql.MySQLError
		switch {
		case err == nil:
			t.fail(what, "the statement succeeded")
		case !errors.As(err, &myErr):
			t.fail(what, "not a MySQL error: "+err.Error())
		case myErr.Number != c.code:
			t.fail(what, fmt.Sprintf("got %d %s", myErr.Number, myErr.Message))
		default:
			t.ok(what)
		}
	}
	got, _, err := t.query(t.conn, "SELECT COUNT(*) FROM "+table+" WHERE id = 100")
	t.compareRows("failed statements left no row", got, err, [][]string{{show(int64(0))}})
}

// runTypes is the `types` subcommand; it returns the exit code.
func runTypes(args []string) int {
	fs := flag.NewFlagSet("types", flag.ExitOnError)
	dsn := fs.String("dsn", "", "go-sql-driver DSN (its database is replaced by "+typesDatabase+")")
	table := fs.String("table", "", "table to create (dropped first if it exists)")
	interpolate := fs.Bool("interpolate", false,
		"interpolateParams=true (client-side parameters) instead of server-side prepared")
	fs.Parse(args)
	if *dsn == "" || *table == "" {
		fmt.Fprintln(os.Stderr, "types: -dsn and -table are required")
		return 2
	}
	cfg, err := mysql.ParseDSN(*dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: bad dsn:", err)
		return 1
	}
	cfg.InterpolateParams = *interpolate
	cfg.ParseTime = true
	cfg.Loc = time.UTC
	cfg.DBName = ""
	ctx := context.Background()
	setup, err := sql.Open("mysql", cfg.FormatDSN())
	if err == nil {
		_, err = setup.ExecContext(ctx, "CREATE DATABASE IF NOT EXISTS "+typesDatabase)
		setup.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: CREATE DATABASE:", err)
		return 1
	}
	cfg.DBName = typesDatabase
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: open:", err)
		return 1
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: connect:", err)
		return 1
	}
	defer conn.Close()

	mode := "prepared"
	if *interpolate {
		mode = "text"
	}
	t := &typesRun{ctx: ctx, conn: conn, prepared: !*interpolate, table: *table}
	m := typesCase{prepared: t.prepared}
	specs := m.rows()
	expected := map[int64][]string{}
	for _, r := range specs {
		expected[r.id] = r.want()
	}
	t.create()
	t.insert(specs)
	t.metadata()
	t.selectAll(expected)
	t.lookups()
	t.aggregates()
	t.updateDelete(expected)
	t.multiRow()
	t.batches()
	t.transactions()
	t.errorCodes()
	if _, err := conn.ExecContext(ctx, "DROP TABLE "+*table); err != nil {
		t.fail("drop table", err.Error())
	}
	if len(t.failures) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: types go %s: %d of %d checks failed: %s\n", mode,
			len(t.failures), len(t.failures)+t.passed, strings.Join(t.failures, "; "))
		return 1
	}
	fmt.Printf("ok: types go %s: %d checks\n", mode, t.passed)
	return 0
}
