// orm_gorm_crud.go: the CRUD of `mysqlclient gorm` (see orm_gorm.go), on the current models:
// Create with associations and CreateInBatches, queries (First/Last/Find/Where/Or/Not, Pluck,
// Distinct, Limit/Offset, subqueries, FindInBatches, Rows, locking reads), Preload and Joins,
// Group/Having aggregates, Raw/Exec/Scan; the writes after those are in orm_gorm_writes.go.
// Every value printed was read back from the server by a later query, never taken from what
// GORM filled in itself after an INSERT.
package main

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// t0 is when the first order was placed; datetime(3) keeps its milliseconds.
var t0 = time.Date(2024, 3, 1, 9, 30, 0, 123_000_000, time.UTC)

func (g *gormRun) crud() {
	g.create()
	g.query()
	g.lockingReads()
	g.preloadAndJoin()
	g.aggregate()
	g.update()
	g.associations()
	g.softAndHardDelete()
	g.transactions()
	g.serverErrors()
	g.raw()
	g.firstOrCreateAndUpsert()
}

// userNames runs q (a query on users) and returns the names it found, in its order.
func (g *gormRun) userNames(q *gorm.DB, what string) string {
	var users []User
	g.must(q.Find(&users).Error, what)
	names := make([]string, len(users))
	for i, u := range users {
		names[i] = u.Name
	}
	return "[" + strings.Join(names, " ") + "]"
}

func describeOrder(o Order) string {
	note := "nil"
	if o.Note != nil {
		note = fmt.Sprintf("%q", *o.Note)
	}
	return fmt.Sprintf("%s amount=%.2f qty=%d status=%s note=%s placed=%s", o.Item, o.Amount,
		o.Quantity, o.Status, note, o.PlacedAt.Format(time.RFC3339Nano))
}

// readUser reads one user back by name, with orders and tags in a stable order.
func (g *gormRun) readUser(name string) User {
	var u User
	g.must(g.db.Preload("Orders", func(tx *gorm.DB) *gorm.DB { return tx.Order("item") }).
		Preload("Tags", func(tx *gorm.DB) *gorm.DB { return tx.Order("name") }).
		First(&u, "name = ?", name).Error, "read back "+name)
	return u
}

func (g *gormRun) describeUser(u User) string {
	tags := make([]string, len(u.Tags))
	for i, t := range u.Tags {
		tags[i] = t.Name
	}
	return fmt.Sprintf("%s email=%s age=%d active=%v country=%q logins=%d orders=%d tags=[%s]",
		u.Name, u.Email, u.Age, u.Active, u.Country, u.LoginCount, len(u.Orders),
		strings.Join(tags, " "))
}

func (g *gormRun) create() {
	db := g.db
	note := "gift wrap"
	alice := User{Name: "alice", Email: "alice@example.com", Age: 30, Country: "NO",
		Profile: `{"theme": "dark", "langs": ["nb", "en"]}`,
		Orders: []Order{
			{Item: "book", Amount: 12.5, PlacedAt: t0, Note: &note},
			{Item: "pen", Amount: 2.25, Quantity: 4, PlacedAt: t0.Add(time.Hour)},
		},
		Tags: []Tag{{Name: "vip"}, {Name: "early"}}}
	res := db.Create(&alice)
	g.must(res.Error, "Create alice with orders and tags")
	g.expect(alice.ID != 0 && alice.Orders[1].ID != 0 && alice.Tags[1].ID != 0,
		"Create fills in the ids", alice.ID, alice.Orders[1].ID, alice.Tags[1].ID)
	// Zero values take the columns' defaults: age 18, active true, quantity 1, status 'new'.
	g.must(db.Create(&User{Name: "bob", Email: "bob@example.com"}).Error, "Create bob")
	a := g.readUser("alice")
	say("create: %s", g.describeUser(a))
	for _, o := range a.Orders {
		say("create: order %s", describeOrder(o))
	}
	g.expect(!a.CreatedAt.IsZero() && !a.UpdatedAt.Before(a.CreatedAt) && !a.DeletedAt.Valid,
		"alice's timestamps", a.CreatedAt, a.UpdatedAt, a.DeletedAt)
	say("create: %s", g.describeUser(g.readUser("bob")))

	// Ten users in INSERTs of four rows; GORM numbers the rows of each from LAST_INSERT_ID()
	// (or RETURNING), so their orders must land on the right users.
	var batch []User
	countries := []string{"SE", "DK", "NO"}
	for i := 1; i <= 10; i++ {
		batch = append(batch, User{Name: fmt.Sprintf("u%02d", i), Age: 20 + i,
			Email: fmt.Sprintf("u%02d@example.com", i), Country: countries[i%3]})
	}
	mark := g.rec.mark()
	res = db.CreateInBatches(batch, 4)
	g.must(res.Error, "CreateInBatches users")
	say("create in batches: rows=%d inserts=%d", res.RowsAffected,
		countPrefix(g.rec.since(mark), "INSERT INTO `users`"))
	var orders []Order
	for i, u := range batch {
		for j := 0; j <= i%3; j++ {
			orders = append(orders, Order{UserID: u.ID, Item: fmt.Sprintf("%s-item%d", u.Name, j),
				Amount: float64(10*(i+1)+j) + 0.99, Quantity: j + 1,
				Status: []string{"new", "paid", "shipped"}[j], PlacedAt: t0.AddDate(0, 0, i)})
		}
	}
	res = db.CreateInBatches(orders, 5)
	g.must(res.Error, "CreateInBatches orders")
	var check []struct {
		Name  string
		Items string
	}
	g.must(db.Raw("SELECT u.name, GROUP_CONCAT(o.item ORDER BY o.item SEPARATOR ',') AS items "+
		"FROM users u JOIN orders o ON o.user_id = u.id WHERE u.name LIKE 'u%' "+
		"GROUP BY u.name ORDER BY u.name").Scan(&check).Error, "orders by user")
	for _, c := range check {
		g.expect(strings.HasPrefix(c.Items, c.Name+"-"), "an order is on the wrong user", c)
	}
	say("create in batches: orders=%d on the right users (%d users)", res.RowsAffected, len(check))
}

func (g *gormRun) query() {
	db := g.db
	var u User
	g.must(db.First(&u).Error, "First")
	say("first: %s", u.Name)
	u = User{}
	g.must(db.Last(&u).Error, "Last")
	say("last: %s", u.Name)
	u = User{}
	g.must(db.Take(&u, "country = ? AND age > ?", "SE", 25).Error, "Take")
	g.expect(u.Country == "SE" && u.Age > 25, "Take's row", u.Name)
	say("where between: %s", g.userNames(
		db.Where("age BETWEEN ? AND ?", 22, 25).Order("name"), "Where BETWEEN"))
	say("where struct and not: %s", g.userNames(
		db.Where(&User{Country: "SE"}).Not("name = ?", "u03").Order("name"), "Where struct, Not"))
	say("where in: %s", g.userNames(
		db.Where("name IN ?", []string{"u01", "u03", "nobody"}).Order("name desc"), "Where IN"))
	say("where or: %s", g.userNames(
		db.Where("country = ?", "DK").Or("age > ?", 29).Order("name"), "Where Or"))
	say("where map: %s", g.userNames(
		db.Where(map[string]any{"country": "NO", "active": true}).Order("name"), "Where map"))
	say("where like: %s", g.userNames(
		db.Where("email LIKE ?", "%1%@example.com").Order("name"), "Where LIKE"))
	say("order limit offset: %s", g.userNames(
		db.Order("age desc, name").Limit(3).Offset(2), "Limit Offset"))
	var names []string
	g.must(db.Model(&User{}).Where("age < ?", 23).Order("name").Pluck("name", &names).Error, "Pluck")
	say("pluck: %v", names)
	var countries []string
	g.must(db.Model(&User{}).Distinct("country").Order("country").Pluck("country", &countries).Error,
		"Distinct Pluck")
	say("distinct: %q", countries)
	var small []struct {
		Name string
		Age  int
	}
	g.must(db.Model(&User{}).Select("name", "age").Where("age >= ?", 29).Order("age").
		Find(&small).Error, "Select into a smaller struct")
	say("select fields: %v", small)
	// A subquery: orders above the average amount.
	var big []Order
	g.must(db.Where("amount > (?)", db.Model(&Order{}).Select("AVG(amount)")).Order("item").
		Find(&big).Error, "subquery")
	say("subquery: %d orders above the average, first %s", len(big), big[0].Item)
	adults := func(tx *gorm.DB) *gorm.DB { return tx.Where("age >= ?", 25) }
	var n int64
	g.must(db.Model(&User{}).Scopes(adults).Count(&n).Error, "Scopes Count")
	say("scopes count: %d", n)
	batches, seen := 0, 0
	var page []User
	g.must(db.Order("id").FindInBatches(&page, 5, func(tx *gorm.DB, _ int) error {
		batches++
		seen += len(page)
		return nil
	}).Error, "FindInBatches")
	say("find in batches: %d batches, %d users", batches, seen)
	rows, err := db.Model(&User{}).Where("country = ?", "DK").Order("name").Rows()
	g.must(err, "Rows")
	var viaRows []string
	for rows.Next() {
		var r User
		g.must(db.ScanRows(rows, &r), "ScanRows")
		viaRows = append(viaRows, r.Name)
	}
	rows.Close()
	say("rows: %v", viaRows)
	err = db.First(&User{}, "name = ?", "nobody").Error
	g.expect(errors.Is(err, gorm.ErrRecordNotFound), "First of no row", err)
	say("first of no row: ErrRecordNotFound")
}

// lockingReads: SELECT ... FOR UPDATE, and FOR SHARE (LOCK IN SHARE MODE on MariaDB, which has
// no FOR SHARE), each in a transaction.
func (g *gormRun) lockingReads() {
	db := g.db
	g.must(db.Transaction(func(tx *gorm.DB) error {
		var locked []User
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("country = ?", "NO").
			Order("name").Find(&locked).Error; err != nil {
			return err
		}
		say("select for update: %d rows", len(locked))
		return nil
	}), "SELECT ... FOR UPDATE")
	g.must(db.Transaction(func(tx *gorm.DB) error {
		var shared int64
		if err := tx.Model(&User{}).Clauses(clause.Locking{Strength: "SHARE"}).
			Where("age > ?", 25).Count(&shared).Error; err != nil {
			return err
		}
		say("select for share: %d rows", shared)
		return nil
	}), "SELECT ... FOR SHARE")
}

func (g *gormRun) preloadAndJoin() {
	db := g.db
	var users []User
	g.must(db.Preload("Orders", "amount > ?", 20, func(tx *gorm.DB) *gorm.DB {
		return tx.Order("amount desc")
	}).Preload("Tags").Where("name IN ?", []string{"alice", "u03", "u06"}).Order("name").
		Find(&users).Error, "Preload with conditions")
	for _, u := range users {
		items := make([]string, len(u.Orders))
		for i, o := range u.Orders {
			items[i] = o.Item
		}
		say("preload: %s orders>20=%v tags=%d", u.Name, items, len(u.Tags))
	}
	var orders []Order
	g.must(db.Preload("User.Tags").Where("item IN ?", []string{"book", "u01-item0"}).
		Order("item").Find(&orders).Error, "nested Preload")
	for _, o := range orders {
		say("nested preload: %s by %s tags=%d", o.Item, o.User.Name, len(o.User.Tags))
	}
	orders = nil
	g.must(db.Joins("User").Where("User.country = ?", "DK").Where("orders.quantity > ?", 1).
		Order("orders.item").Find(&orders).Error, "Joins belongs-to")
	for _, o := range orders {
		say("joins: %s by %s (%s)", o.Item, o.User.Name, o.User.Country)
	}
	orders = nil
	g.must(db.InnerJoins("User", db.Where(&User{Name: "alice"})).Order("orders.item").
		Find(&orders).Error, "InnerJoins with a condition")
	say("inner joins: %d orders of alice", len(orders))
	var totals []struct {
		Name   string
		Orders int
		Total  float64
	}
	g.must(db.Model(&User{}).
		Select("users.name, COUNT(orders.id) AS orders, COALESCE(SUM(orders.amount), 0) AS total").
		Joins("LEFT JOIN orders ON orders.user_id = users.id AND orders.deleted_at IS NULL").
		Group("users.name").Having("COUNT(orders.id) <> ?", 2).Order("users.name").
		Scan(&totals).Error, "Joins with Group and Having")
	for _, t := range totals {
		say("left join group: %s orders=%d total=%.2f", t.Name, t.Orders, t.Total)
	}
}

func (g *gormRun) aggregate() {
	db := g.db
	var n int64
	g.must(db.Model(&Order{}).Count(&n).Error, "Count orders")
	say("count orders: %d", n)
	g.must(db.Model(&User{}).Where("country = ?", "SE").Count(&n).Error, "Count with Where")
	say("count SE users: %d", n)
	var byStatus []struct {
		Status string
		N      int
		Qty    int
		Sum    float64
	}
	g.must(db.Model(&Order{}).
		Select("status, COUNT(*) AS n, SUM(quantity) AS qty, SUM(amount) AS sum").
		Group("status").Having("COUNT(*) > ?", 1).Order("status").Scan(&byStatus).Error,
		"Group Having")
	for _, s := range byStatus {
		say("group by status: %s n=%d qty=%d sum=%.2f", s.Status, s.N, s.Qty, s.Sum)
	}
	var maxAge, minAge int
	var avgAge float64
	g.must(db.Model(&User{}).Select("MAX(age), MIN(age), AVG(age)").Row().
		Scan(&maxAge, &minAge, &avgAge), "Row with MAX, MIN, AVG")
	say("max min avg age: %d %d %.4f", maxAge, minAge, avgAge)
}

func (g *gormRun) raw() {
	db := g.db
	var rows []struct {
		Name string
		Age  int
	}
	g.must(db.Raw("SELECT name, age FROM users WHERE age > ? AND deleted_at IS NULL ORDER BY name",
		29).Scan(&rows).Error, "Raw Scan")
	say("raw scan: %v", rows)
	var theme string
	g.must(db.Raw("SELECT JSON_UNQUOTE(JSON_EXTRACT(profile, '$.theme')) FROM users WHERE name = ?",
		"alice").Scan(&theme).Error, "Raw JSON_EXTRACT")
	say("raw json: theme=%s", theme)
	var count int
	g.must(db.Raw("SELECT COUNT(*) FROM orders "+
		"WHERE user_id = (SELECT id FROM users WHERE name = @name)",
		sql.Named("name", "alice")).Scan(&count).Error, "Raw with a named argument")
	say("raw named: %d", count)
	res := db.Exec("UPDATE orders SET status = ? WHERE item IN ?", "shipped", []string{"book", "pen"})
	g.must(res.Error, "Exec UPDATE")
	say("exec: rows=%d", res.RowsAffected)
	var o Order
	g.must(db.Raw("SELECT * FROM orders WHERE item = ?", "book").Scan(&o).Error, "Raw into a model")
	say("raw model: %s", describeOrder(o))
	var total float64
	g.must(db.Table("orders").Select("SUM(amount * quantity)").Where("deleted_at IS NULL").Row().
		Scan(&total), "Table Row")
	say("table row: %.2f", total)
}
