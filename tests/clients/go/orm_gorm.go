// orm_gorm.go: GORM (gorm.io/gorm with gorm.io/driver/mysql), unmodified, as an application
// uses it (issue 19). `mysqlclient gorm -dsn 'root@unix(SOCK)/DB' [-v]` runs, on an empty
// database DB:
//
//   - AutoMigrate of a shop's first models (users with many orders over a FOREIGN KEY; sizes,
//     NOT NULL, defaults, unique and plain indexes, CreatedAt/UpdatedAt, soft delete), read back
//     from the catalog;
//   - AutoMigrate of the same models again, which must issue no DDL;
//   - AutoMigrate of the next version (an order belongs to its user; users and tags
//     many-to-many through user_tags; new columns, one with a comment, a wider column, new
//     indexes of one and two columns), whose DDL is printed, and once more with no DDL;
//   - CRUD in orm_gorm_crud.go and orm_gorm_writes.go;
//   - the Migrator's own calls, as a hand-written migration makes them: a table's column and
//     index renamed, an index and a column dropped, a column altered, a view made and dropped,
//     the table renamed and dropped. GORM writes these differently for MariaDB (CHANGE for
//     RENAME COLUMN, DROP and CREATE for RENAME INDEX), so only the resulting schema is printed.
//
// Everything GORM needs to learn it reads from information_schema and SELECT VERSION(), so the
// printed summary, the same on every server, is also a check of the server's catalog. It holds
// no ids, timestamps or other values that vary between runs. Exits 1 with the failing check
// (and the last SQL statement) on any error; -v logs every statement to stderr.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"
	gormmysql "gorm.io/driver/mysql"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// The first version of the models. Same tables as the current ones below.
type userV1 struct {
	ID        uint
	Name      string `gorm:"size:64;not null;uniqueIndex"`
	Email     string `gorm:"size:100;index"`
	Age       int    `gorm:"not null;default:18"`
	Active    bool   `gorm:"not null;default:true"`
	CreatedAt time.Time
	UpdatedAt time.Time
	DeletedAt gorm.DeletedAt `gorm:"index"`
	Orders    []orderV1      `gorm:"foreignKey:UserID"`
}

func (userV1) TableName() string { return "users" }

type orderV1 struct {
	ID        uint
	UserID    uint    `gorm:"not null;index"`
	Item      string  `gorm:"size:100;not null"`
	Amount    float64 `gorm:"type:decimal(10,2);not null"`
	Quantity  int     `gorm:"not null;default:1"`
	Status    string  `gorm:"size:20;not null;default:'new'"`
	PlacedAt  time.Time
	CreatedAt time.Time
	UpdatedAt time.Time
	DeletedAt gorm.DeletedAt `gorm:"index"`
}

func (orderV1) TableName() string { return "orders" }

// The current models: User gains Country (indexed), LoginCount, Profile (a JSON document kept
// as text) and Tags (a new table and a join table), Email grows to 200; Order gains Note and an
// index over (status, amount).
type User struct {
	ID         uint
	Name       string `gorm:"size:64;not null;uniqueIndex"`
	Email      string `gorm:"size:200;index"`
	Age        int    `gorm:"not null;default:18"`
	Active     bool   `gorm:"not null;default:true"`
	Country    string `gorm:"size:2;index;comment:ISO 3166 code"`
	LoginCount int    `gorm:"not null;default:0"`
	Profile    string `gorm:"type:text"`
	CreatedAt  time.Time
	UpdatedAt  time.Time
	DeletedAt  gorm.DeletedAt `gorm:"index"`
	Orders     []Order
	Tags       []Tag `gorm:"many2many:user_tags"`
}

type Order struct {
	ID        uint
	UserID    uint    `gorm:"not null;index"`
	User      User    // belongs to
	Item      string  `gorm:"size:100;not null"`
	Amount    float64 `gorm:"type:decimal(10,2);not null;index:idx_orders_status_amount,priority:2"`
	Quantity  int     `gorm:"not null;default:1"`
	Status    string  `gorm:"size:20;not null;default:'new';index:idx_orders_status_amount,priority:1"`
	Note      *string `gorm:"size:200"`
	PlacedAt  time.Time
	CreatedAt time.Time
	UpdatedAt time.Time
	DeletedAt gorm.DeletedAt `gorm:"index"`
}

type Tag struct {
	ID    uint
	Name  string `gorm:"size:32;not null;uniqueIndex"`
	Users []User `gorm:"many2many:user_tags"`
}

// An audit log that a hand-written migration reshapes and then drops (migrateByHand).
type auditEntry struct {
	ID     uint
	Action string `gorm:"size:40;not null;index"`
	Detail string `gorm:"size:200"`
	Extra  int
	At     time.Time
}

// sqlRecorder is GORM's logger: it keeps the statements run (for the DDL checks and for the
// failure message) and passes them on to GORM's own logger, silent unless -v. One for the run,
// shared by every session GORM derives; locked, as GORM does not promise one goroutine.
type sqlRecorder struct {
	inner logger.Interface
	mu    sync.Mutex
	stmts []string
}

func (r *sqlRecorder) LogMode(level logger.LogLevel) logger.Interface {
	r.inner = r.inner.LogMode(level)
	return r
}
func (r *sqlRecorder) Info(ctx context.Context, s string, a ...any)  { r.inner.Info(ctx, s, a...) }
func (r *sqlRecorder) Warn(ctx context.Context, s string, a ...any)  { r.inner.Warn(ctx, s, a...) }
func (r *sqlRecorder) Error(ctx context.Context, s string, a ...any) { r.inner.Error(ctx, s, a...) }
func (r *sqlRecorder) Trace(ctx context.Context, begin time.Time, fc func() (string, int64),
	err error) {
	sql, _ := fc()
	r.mu.Lock()
	r.stmts = append(r.stmts, sql)
	r.mu.Unlock()
	r.inner.Trace(ctx, begin, fc, err)
}

// mark returns the number of statements recorded so far; since(mark) those run after it.
func (r *sqlRecorder) mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.stmts)
}

func (r *sqlRecorder) since(mark int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.stmts[mark:]...)
}

func (r *sqlRecorder) last() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.stmts) == 0 {
		return "(none)"
	}
	return r.stmts[len(r.stmts)-1]
}

// gormRun carries what every check needs: the handle and the recorder.
type gormRun struct {
	db  *gorm.DB
	rec *sqlRecorder
}

// must fails the run when err is set, naming the check and the last statement GORM ran.
func (g *gormRun) must(err error, what string) {
	if err != nil {
		fail("gorm: %s: %v\n  last SQL: %s", what, err, g.rec.last())
	}
}

// expect fails the run with the check's name and what was read when ok is false.
func (g *gormRun) expect(ok bool, what string, got ...any) {
	if !ok {
		fail("gorm: %s: got %v\n  last SQL: %s", what, got, g.rec.last())
	}
}

func say(format string, args ...any) { fmt.Printf(format+"\n", args...) }

func runGorm(args []string) int {
	fs := flag.NewFlagSet("gorm", flag.ExitOnError)
	dsn := fs.String("dsn", "", "go-sql-driver DSN naming an empty database")
	verbose := fs.Bool("v", false, "log every SQL statement to stderr")
	fs.Parse(args)

	cfg, err := mysql.ParseDSN(*dsn)
	if err != nil || cfg.DBName == "" {
		fail("gorm: -dsn must name a database: %q %v", *dsn, err)
	}
	cfg.ParseTime = true
	cfg.Loc = time.UTC
	level := logger.Silent
	if *verbose {
		level = logger.Info
	}
	rec := &sqlRecorder{inner: logger.New(
		logWriter{}, logger.Config{LogLevel: level, IgnoreRecordNotFoundError: true})}
	// GORM adds RETURNING to INSERTs on a MariaDB 10.5 or later (which then counts the rows
	// returned, not MySQL's affected rows); off, every server gets the statements MySQL 8.0 gets.
	dialector := gormmysql.New(gormmysql.Config{DSN: cfg.FormatDSN(), DisableWithReturning: true})
	db, err := gorm.Open(dialector, &gorm.Config{
		Logger:         rec,
		TranslateError: true,
		NowFunc:        func() time.Time { return time.Now().UTC() },
	})
	if err != nil {
		fail("gorm: open: %v", err)
	}
	g := &gormRun{db: db, rec: rec}
	g.migrate()
	g.crud()
	g.migrateByHand()
	sqlDB, _ := db.DB()
	sqlDB.Close()
	return 0
}

type logWriter struct{}

func (logWriter) Printf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
}

// ddlSince returns the DDL among the statements run since mark, as GORM wrote it but sorted,
// and CREATE TABLE cut after the table's name: GORM orders constraints as it walks a map.
// describeSchema shows what the tables hold.
func (g *gormRun) ddlSince(mark int) []string {
	var ddl []string
	for _, s := range g.rec.since(mark) {
		head := strings.ToUpper(strings.Fields(s + " x")[0])
		if head == "CREATE" || head == "ALTER" || head == "DROP" {
			if strings.HasPrefix(s, "CREATE TABLE ") {
				s, _, _ = strings.Cut(s, " (")
			}
			ddl = append(ddl, s)
		}
	}
	sort.Strings(ddl)
	return ddl
}

func (g *gormRun) migrate() {
	m := g.db.Migrator()
	tables, err := m.GetTables()
	g.must(err, "GetTables on the empty database")
	g.expect(len(tables) == 0, "the database is not empty", tables)

	mark := g.rec.mark()
	g.must(m.AutoMigrate(&userV1{}, &orderV1{}), "AutoMigrate v1")
	say("migrate v1: %d CREATE TABLE", countPrefix(g.ddlSince(mark), "CREATE TABLE"))
	g.describeSchema(&userV1{}, &orderV1{})

	mark = g.rec.mark()
	g.must(m.AutoMigrate(&userV1{}, &orderV1{}), "AutoMigrate v1 again")
	g.expect(len(g.ddlSince(mark)) == 0, "AutoMigrate v1 again changed the schema",
		g.ddlSince(mark))
	say("migrate v1 again: no DDL")

	mark = g.rec.mark()
	g.must(m.AutoMigrate(&User{}, &Order{}, &Tag{}), "AutoMigrate v2")
	for _, s := range g.ddlSince(mark) {
		say("migrate v2: %s", s)
	}
	g.describeSchema(&User{}, &Order{}, &Tag{}, "user_tags")
	g.expect(m.HasColumn(&User{}, "Country") && m.HasIndex(&User{}, "Country") &&
		m.HasIndex(&Order{}, "idx_orders_status_amount") && m.HasTable("user_tags"),
		"HasColumn/HasIndex/HasTable after v2")
	for _, fk := range []string{"fk_users_orders", "fk_user_tags_user", "fk_user_tags_tag"} {
		table := "user_tags"
		if fk == "fk_users_orders" {
			table = "orders"
		}
		say("constraint %s on %s: %v", fk, table, m.HasConstraint(table, fk))
	}

	mark = g.rec.mark()
	g.must(m.AutoMigrate(&User{}, &Order{}, &Tag{}), "AutoMigrate v2 again")
	g.expect(len(g.ddlSince(mark)) == 0, "AutoMigrate v2 again changed the schema",
		g.ddlSince(mark))
	say("migrate v2 again: no DDL")
}

func countPrefix(stmts []string, prefix string) int {
	n := 0
	for _, s := range stmts {
		if strings.HasPrefix(s, prefix) {
			n++
		}
	}
	return n
}

// describeSchema prints the tables and, for each model (or table name), its columns and
// indexes as GORM's migrator reads them from the catalog.
func (g *gormRun) describeSchema(models ...any) {
	m := g.db.Migrator()
	tables, err := m.GetTables()
	g.must(err, "GetTables")
	sort.Strings(tables)
	say("tables: %s", strings.Join(tables, " "))
	for _, model := range models {
		name := tableName(g.db, model)
		cols, err := m.ColumnTypes(model)
		g.must(err, "ColumnTypes "+name)
		for _, c := range cols {
			say("  %s.%s", name, describeColumn(c))
		}
		idxs, err := m.GetIndexes(model)
		g.must(err, "GetIndexes "+name)
		for _, ix := range idxs {
			unique, _ := ix.Unique()
			primary, _ := ix.PrimaryKey()
			say("  %s index %s (%s) unique=%v primary=%v", name, ix.Name(),
				strings.Join(ix.Columns(), ","), unique, primary)
		}
	}
}

func tableName(db *gorm.DB, model any) string {
	if s, ok := model.(string); ok {
		return s
	}
	stmt := &gorm.Statement{DB: db}
	if err := stmt.Parse(model); err != nil {
		fail("gorm: parse %T: %v", model, err)
	}
	return stmt.Schema.Table
}

func describeColumn(c gorm.ColumnType) string {
	var b strings.Builder
	b.WriteString(c.Name() + " " + strings.ToLower(c.DatabaseTypeName()))
	if n, ok := c.Length(); ok && n > 0 {
		fmt.Fprintf(&b, " length=%d", n)
	}
	if p, s, ok := c.DecimalSize(); ok && strings.EqualFold(c.DatabaseTypeName(), "decimal") {
		fmt.Fprintf(&b, " decimal=%d,%d", p, s)
	}
	if nullable, ok := c.Nullable(); ok {
		fmt.Fprintf(&b, " nullable=%v", nullable)
	}
	if dv, ok := c.DefaultValue(); ok {
		fmt.Fprintf(&b, " default=%q", dv)
	}
	if pk, ok := c.PrimaryKey(); ok && pk {
		b.WriteString(" primary")
	}
	if u, ok := c.Unique(); ok && u {
		b.WriteString(" unique")
	}
	if ai, ok := c.AutoIncrement(); ok && ai {
		b.WriteString(" auto_increment")
	}
	if cm, ok := c.Comment(); ok && cm != "" {
		fmt.Fprintf(&b, " comment=%q", cm)
	}
	return b.String()
}

func (g *gormRun) migrateByHand() {
	m := g.db.Migrator()
	g.must(m.AutoMigrate(&auditEntry{}), "AutoMigrate audit_entries")
	g.must(g.db.Create(&auditEntry{Action: "login", Detail: "alice", Extra: 1, At: t0}).Error,
		"Create an audit entry")
	g.must(m.RenameColumn(&auditEntry{}, "detail", "details"), "RenameColumn")
	g.must(m.RenameIndex(&auditEntry{}, "idx_audit_entries_action", "idx_audit_action"),
		"RenameIndex")
	g.must(m.DropColumn(&auditEntry{}, "Extra"), "DropColumn")
	g.must(m.AlterColumn(&auditEntry{}, "At"), "AlterColumn")
	say("by hand: has column detail=%v details=%v extra=%v, index idx_audit_action=%v",
		m.HasColumn(&auditEntry{}, "detail"), m.HasColumn(&auditEntry{}, "details"),
		m.HasColumn(&auditEntry{}, "extra"), m.HasIndex(&auditEntry{}, "idx_audit_action"))
	g.describeSchema("audit_entries")
	var details string
	g.must(g.db.Raw("SELECT details FROM audit_entries WHERE action = ?", "login").
		Scan(&details).Error, "read the renamed column")
	say("by hand: details=%s", details)
	g.must(m.DropIndex(&auditEntry{}, "idx_audit_action"), "DropIndex")
	say("by hand: after DropIndex has index=%v", m.HasIndex(&auditEntry{}, "idx_audit_action"))

	g.must(m.CreateView("adult_users", gorm.ViewOption{
		Query: g.db.Model(&User{}).Select("name", "age").Where("age >= ?", 30)}), "CreateView")
	var adults []string
	g.must(g.db.Table("adult_users").Order("name").Pluck("name", &adults).Error, "read the view")
	say("by hand: view adult_users %v", adults)
	g.must(m.DropView("adult_users"), "DropView")

	g.must(m.RenameTable(&auditEntry{}, "audit_log"), "RenameTable")
	say("by hand: renamed has audit_entries=%v audit_log=%v", m.HasTable(&auditEntry{}),
		m.HasTable("audit_log"))
	g.must(m.DropTable("audit_log"), "DropTable")
	tables, err := m.GetTables()
	g.must(err, "GetTables")
	sort.Strings(tables)
	say("by hand: tables %s", strings.Join(tables, " "))
}
