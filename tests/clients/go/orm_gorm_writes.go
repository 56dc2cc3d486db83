// orm_gorm_writes.go: the writes of `mysqlclient gorm` (see orm_gorm.go) after its Creates:
// Update/Updates/UpdateColumn/Save, association mode, soft delete and Unscoped hard delete,
// transactions with a rollback and nested savepoints, the server's errors as GORM's (1062,
// 1452, 1451), FirstOrCreate and upserts (ON DUPLICATE KEY UPDATE, INSERT IGNORE).
package main

import (
	"errors"
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

var errRollback = errors.New("roll this back")

func (g *gormRun) update() {
	db := g.db
	var bob User
	g.must(db.First(&bob, "name = ?", "bob").Error, "First bob")
	before := bob.UpdatedAt
	res := db.Model(&bob).Update("age", 41)
	g.must(res.Error, "Update")
	b := g.readUser("bob")
	g.expect(!b.UpdatedAt.Before(before), "Update moves updated_at", before, b.UpdatedAt)
	say("update: rows=%d age=%d", res.RowsAffected, b.Age)
	// MySQL counts the rows changed, not those matched (no CLIENT_FOUND_ROWS).
	res = db.Model(&User{}).Where("name = ?", "bob").UpdateColumn("age", 41)
	g.must(res.Error, "UpdateColumn to the same value")
	say("update to the same value: rows=%d", res.RowsAffected)
	// Updates with a struct skips zero values; with a map it does not.
	res = db.Model(&b).Updates(User{Email: "robert@example.com", Country: "FI", Age: 0})
	g.must(res.Error, "Updates struct")
	res = db.Model(&b).Updates(map[string]any{"active": false, "login_count": 3})
	g.must(res.Error, "Updates map")
	say("updates: %s", g.describeUser(g.readUser("bob")))
	b = g.readUser("bob")
	stamp := b.UpdatedAt
	g.must(db.Model(&b).UpdateColumn("login_count", gorm.Expr("login_count * ?", 10)).Error,
		"UpdateColumn")
	g.must(db.Model(&b).UpdateColumns(User{Profile: `{"theme": "light"}`}).Error, "UpdateColumns")
	b = g.readUser("bob")
	g.expect(b.UpdatedAt.Equal(stamp), "UpdateColumn leaves updated_at", stamp, b.UpdatedAt)
	say("update column: logins=%d profile=%s updated_at kept", b.LoginCount, b.Profile)
	res = db.Model(&User{}).Where("country = ?", "SE").
		Update("login_count", gorm.Expr("login_count + ?", 2))
	g.must(res.Error, "Update with an expression")
	say("update expr: rows=%d", res.RowsAffected)
	res = db.Model(&b).Select("Name", "Age").Updates(User{Name: "bob", Age: 0})
	g.must(res.Error, "Select with Updates")
	say("select updates: age=%d", g.readUser("bob").Age)
	// Save writes every column of a loaded row, and inserts a new one.
	u := g.readUser("u05")
	u.Email, u.Active, u.Country = "five@example.com", false, "IS"
	g.must(db.Save(&u).Error, "Save loaded")
	say("save: %s", g.describeUser(g.readUser("u05")))
	g.must(db.Save(&User{Name: "eve", Email: "eve@example.com", Age: 50, Active: true}).Error,
		"Save new")
	say("save new: %s", g.describeUser(g.readUser("eve")))
	err := db.Model(&User{}).Update("age", 1).Error
	g.expect(errors.Is(err, gorm.ErrMissingWhereClause), "Update without WHERE", err)
}

func (g *gormRun) associations() {
	db := g.db
	bob := g.readUser("bob")
	tags := func() *gorm.Association { return db.Model(&bob).Association("Tags") }
	g.must(tags().Append(&Tag{Name: "newsletter"}, &Tag{Name: "beta"}), "Association Append")
	say("association append: count=%d", tags().Count())
	var vip Tag
	g.must(db.First(&vip, "name = ?", "vip").Error, "First vip")
	g.must(tags().Replace(&vip), "Association Replace")
	say("association replace: %s", g.describeUser(g.readUser("bob")))
	g.must(db.Model(&bob).Association("Orders").Append(&Order{Item: "mug", Amount: 7,
		PlacedAt: t0}), "Association Append has-many")
	var tagged []User
	g.must(db.Model(&vip).Association("Users").Find(&tagged), "Association Find")
	say("association find: vip users=%d", len(tagged))
	g.must(tags().Delete(&vip), "Association Delete")
	say("association delete: %s", g.describeUser(g.readUser("bob")))
	var joinRows int64
	g.must(db.Table("user_tags").Count(&joinRows).Error, "Count user_tags")
	say("user_tags rows: %d", joinRows)
}

func (g *gormRun) softAndHardDelete() {
	db := g.db
	u10 := g.readUser("u10")
	res := db.Delete(&u10)
	g.must(res.Error, "soft Delete")
	var n, all int64
	g.must(db.Model(&User{}).Count(&n).Error, "Count")
	g.must(db.Unscoped().Model(&User{}).Count(&all).Error, "Unscoped Count")
	var gone User
	g.must(db.Unscoped().First(&gone, "name = ?", "u10").Error, "Unscoped First")
	say("soft delete: rows=%d count=%d unscoped=%d deleted_at set=%v", res.RowsAffected, n, all,
		gone.DeletedAt.Valid)
	err := db.First(&User{}, "name = ?", "u10").Error
	g.expect(errors.Is(err, gorm.ErrRecordNotFound), "a soft-deleted row is hidden", err)
	res = db.Where("age < ?", 23).Delete(&User{})
	g.must(res.Error, "soft Delete with Where")
	say("soft delete where: rows=%d left %s", res.RowsAffected,
		g.userNames(db.Where("name LIKE ?", "u%").Order("name"), "after soft delete"))
	res = db.Unscoped().Model(&User{}).Where("name = ?", "u01").Update("deleted_at", nil)
	g.must(res.Error, "undelete")
	say("undelete: rows=%d", res.RowsAffected)
	// Deleting a user with its orders (soft, both); then the orders are removed for good.
	u09 := g.readUser("u09")
	g.must(db.Select("Orders").Delete(&u09).Error, "Delete with Select(Orders)")
	var live, kept int64
	g.must(db.Model(&Order{}).Where("user_id = ?", u09.ID).Count(&live).Error, "Count live")
	g.must(db.Unscoped().Model(&Order{}).Where("user_id = ?", u09.ID).Count(&kept).Error, "Count")
	say("delete with associations: live orders=%d kept=%d", live, kept)
	res = db.Unscoped().Where("user_id = ?", u09.ID).Delete(&Order{})
	g.must(res.Error, "Unscoped Delete orders")
	say("hard delete orders: rows=%d", res.RowsAffected)
	res = db.Unscoped().Delete(&u09)
	g.must(res.Error, "Unscoped Delete user")
	g.must(db.Unscoped().Model(&User{}).Count(&all).Error, "Unscoped Count")
	say("hard delete user: rows=%d unscoped=%d", res.RowsAffected, all)
	ids := []uint{}
	g.must(db.Model(&Order{}).Where("item LIKE ?", "u08-%").Order("id").Pluck("id", &ids).Error,
		"Pluck ids")
	res = db.Delete(&Order{}, ids)
	g.must(res.Error, "Delete by primary keys")
	say("delete by primary keys: rows=%d", res.RowsAffected)
}

func (g *gormRun) countNamed(prefix string) []string {
	var names []string
	g.must(g.db.Model(&User{}).Where("name LIKE ?", prefix+"%").Order("name").
		Pluck("name", &names).Error, "Pluck "+prefix)
	return names
}

func (g *gormRun) transactions() {
	db := g.db
	err := db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&User{Name: "tx-rolled", Age: 1}).Error; err != nil {
			return err
		}
		return errRollback
	})
	g.expect(errors.Is(err, errRollback), "Transaction returns its error", err)
	say("transaction rolled back: %v", g.countNamed("tx-rolled"))
	// A nested Transaction is a savepoint: its error rolls back only the inner work.
	g.must(db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&User{Name: "tx-outer"}).Error; err != nil {
			return err
		}
		err := tx.Transaction(func(tx2 *gorm.DB) error {
			if err := tx2.Create(&User{Name: "tx-inner"}).Error; err != nil {
				return err
			}
			return errRollback
		})
		if !errors.Is(err, errRollback) {
			return fmt.Errorf("nested transaction: %v", err)
		}
		if err := tx.Transaction(func(tx2 *gorm.DB) error {
			return tx2.Create(&User{Name: "tx-inner-kept"}).Error
		}); err != nil {
			return err
		}
		return tx.Create(&User{Name: "tx-after"}).Error
	}), "nested Transaction")
	say("nested transaction: %v", g.countNamed("tx-"))
	tx := db.Begin()
	g.must(tx.Error, "Begin")
	g.must(tx.Create(&User{Name: "sp-a"}).Error, "Create sp-a")
	g.must(tx.SavePoint("sp1").Error, "SavePoint")
	g.must(tx.Create(&User{Name: "sp-b"}).Error, "Create sp-b")
	g.must(tx.Model(&User{}).Where("name = ?", "sp-a").Update("age", 77).Error, "Update sp-a")
	g.must(tx.RollbackTo("sp1").Error, "RollbackTo")
	g.must(tx.Create(&User{Name: "sp-c"}).Error, "Create sp-c")
	g.must(tx.Commit().Error, "Commit")
	say("savepoint: %v sp-a age=%d", g.countNamed("sp-"), g.readUser("sp-a").Age)
	tx = db.Begin()
	g.must(tx.Create(&User{Name: "tx-whole"}).Error, "Create tx-whole")
	g.must(tx.Rollback().Error, "Rollback")
	say("rollback: %v", g.countNamed("tx-whole"))
}

// serverErrors: the server's 1062, 1452 and 1451 reach the application as GORM's errors.
func (g *gormRun) serverErrors() {
	db := g.db
	err := db.Create(&User{Name: "alice"}).Error
	g.expect(errors.Is(err, gorm.ErrDuplicatedKey), "a duplicate name", err)
	say("duplicate key: ErrDuplicatedKey")
	err = db.Create(&Order{UserID: 999999, Item: "orphan", Amount: 1, PlacedAt: t0}).Error
	g.expect(errors.Is(err, gorm.ErrForeignKeyViolated), "an order of no user", err)
	say("missing parent: ErrForeignKeyViolated")
	err = db.Exec("DELETE FROM users WHERE name = ?", "alice").Error
	g.expect(errors.Is(err, gorm.ErrForeignKeyViolated), "deleting a user with orders", err)
	say("parent with children: ErrForeignKeyViolated")
	// The failed statements left the data as it was.
	say("after errors: %s", g.describeUser(g.readUser("alice")))
}

func (g *gormRun) firstOrCreateAndUpsert() {
	db := g.db
	var a User
	res := db.Where(User{Name: "alice"}).FirstOrCreate(&a)
	g.must(res.Error, "FirstOrCreate existing")
	say("first or create existing: rows=%d %s", res.RowsAffected, a.Name)
	var c User
	res = db.Where(User{Name: "carol"}).Attrs(User{Age: 40, Email: "carol@example.com"}).
		FirstOrCreate(&c)
	g.must(res.Error, "FirstOrCreate new")
	say("first or create new: rows=%d %s", res.RowsAffected, g.describeUser(g.readUser("carol")))
	c = User{}
	g.must(db.Where(User{Name: "carol"}).Assign(User{Country: "IS"}).FirstOrCreate(&c).Error,
		"FirstOrCreate with Assign")
	say("first or create assign: %s", g.describeUser(g.readUser("carol")))
	var d User
	g.must(db.Where(User{Name: "dave"}).Attrs(User{Age: 60}).FirstOrInit(&d).Error, "FirstOrInit")
	say("first or init: %s age=%d saved=%v", d.Name, d.Age, len(g.countNamed("dave")) == 1)

	// Upserts: ON DUPLICATE KEY UPDATE; the affected rows are MySQL's 1 per insert and 2 per
	// update.
	res = db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "name"}},
		DoUpdates: clause.AssignmentColumns([]string{"age", "email"}),
	}).Create(&[]User{
		{Name: "alice", Age: 31, Email: "alice@new.example.com"},
		{Name: "dave", Age: 60, Email: "dave@example.com"},
	})
	g.must(res.Error, "upsert AssignmentColumns")
	say("upsert: rows=%d %s | %s", res.RowsAffected, g.describeUser(g.readUser("alice")),
		g.describeUser(g.readUser("dave")))
	res = db.Clauses(clause.OnConflict{UpdateAll: true}).Create(&Tag{Name: "vip"})
	g.must(res.Error, "upsert UpdateAll")
	say("upsert update all: rows=%d", res.RowsAffected)
	res = db.Clauses(clause.OnConflict{DoNothing: true}).Create(&Tag{Name: "early"})
	g.must(res.Error, "upsert DoNothing")
	say("upsert do nothing: rows=%d", res.RowsAffected)
	res = db.Clauses(clause.OnConflict{DoUpdates: clause.Assignments(map[string]any{
		"login_count": gorm.Expr("login_count + 1")})}).Create(&User{Name: "dave"})
	g.must(res.Error, "upsert with an expression")
	say("upsert expr: rows=%d logins=%d", res.RowsAffected, g.readUser("dave").LoginCount)
	res = db.Clauses(clause.Insert{Modifier: "IGNORE"}).Create(&Tag{Name: "vip"})
	g.must(res.Error, "INSERT IGNORE")
	say("insert ignore: rows=%d", res.RowsAffected)
	var tags []string
	g.must(db.Model(&Tag{}).Order("name").Pluck("name", &tags).Error, "Pluck tags")
	say("tags: %v", tags)
	var n int64
	g.must(db.Unscoped().Model(&User{}).Count(&n).Error, "final Count")
	say("users at the end: %d", n)
}
