// mysqlclient runs one scripted session against a MySQL server with Go's
// go-sql-driver/mysql, the way applications use it, and fails loudly on any
// surprise. Used by the integration tests against a Shoal router.
//
//	mysqlclient -dsn 'root:@unix(/tmp/shoal/router-4.sock)/' [-interpolate] [-bad-password]
//	    [-expect-error N] [-tls-ca FILE [-tls-cert FILE -tls-key FILE] [-server-name NAME]
//	    [-tls-version 1.2|1.3] [-tls-resume] [-expect-tls-failure]]  (TLS; see tls.go)
//	mysqlclient types -dsn ... -table NAME [-interpolate]   (every column type; see types.go)
//	mysqlclient gorm -dsn 'root@unix(SOCK)/DB' [-v]         (GORM, unmodified; see orm_gorm.go)
package main

import (
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/go-sql-driver/mysql"
)

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "FAIL: "+format+"\n", args...)
	os.Exit(1)
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "types" {
		os.Exit(runTypes(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == "gorm" {
		os.Exit(runGorm(os.Args[2:]))
	}
	dsn := flag.String("dsn", "", "go-sql-driver DSN")
	interpolate := flag.Bool("interpolate", false, "interpolateParams=true (client-side parameters)")
	badPassword := flag.Bool("bad-password", false, "expect the login to be refused with 1045")
	expectError := flag.Int("expect-error", 0, "expect the login to be refused with this error")
	tlsCA := flag.String("tls-ca", "", "TLS, the server's certificate verified with this CA file")
	tlsCert := flag.String("tls-cert", "", "with -tls-ca: the client certificate (PEM)")
	tlsKey := flag.String("tls-key", "", "with -tls-ca: the client certificate's key (PEM)")
	serverName := flag.String("server-name", "", "with -tls-ca: the name to verify (default: the host)")
	tlsVersion := flag.String("tls-version", "", "with -tls-ca: 1.2 or 1.3 alone (default: either)")
	tlsResume := flag.Bool("tls-resume", false, "with -tls-ca: then a connection that resumes TLS")
	expectTLSFailure := flag.Bool("expect-tls-failure", false,
		"expect the connect to fail on the server's certificate")
	flag.Parse()
	if *badPassword {
		*expectError = 1045
	}

	cfg, err := mysql.ParseDSN(*dsn)
	if err != nil {
		fail("bad dsn: %v", err)
	}
	cfg.InterpolateParams = *interpolate
	if *tlsCA != "" {
		if err := registerTLS(*tlsCA, *tlsCert, *tlsKey, *serverName, *tlsVersion, *tlsResume); err != nil {
			fail("TLS configuration: %v", err)
		}
		cfg.TLSConfig = tlsConfigName
	}
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		fail("open: %v", err)
	}
	defer db.Close()

	err = db.Ping()
	if *expectTLSFailure {
		if !certificateRefused(err) {
			fail("expected the server's certificate to be refused, got %v", err)
		}
		fmt.Println("refused:", err)
		return
	}
	if *expectError != 0 {
		var myErr *mysql.MySQLError
		if !errors.As(err, &myErr) || int(myErr.Number) != *expectError {
			fail("expected error %d, got %v", *expectError, err)
		}
		fmt.Println("refused:", myErr.Message)
		return
	}
	if err != nil {
		fail("ping: %v", err)
	}

	var one int64
	if err := db.QueryRow("SELECT 1").Scan(&one); err != nil || one != 1 {
		fail("SELECT 1 (text): %v %d", err, one)
	}
	// With arguments: server-side prepared statement, or interpolated text.
	var two int64
	if err := db.QueryRow("SELECT ? + 1", 1).Scan(&two); err != nil || two != 2 {
		fail("SELECT ? + 1: %v %d", err, two)
	}
	stmt, err := db.Prepare("SELECT 1")
	if err != nil {
		fail("prepare SELECT 1: %v", err)
	}
	for i := 0; i < 3; i++ {
		if err := stmt.QueryRow().Scan(&one); err != nil || one != 1 {
			fail("prepared SELECT 1: %v %d", err, one)
		}
	}
	stmt.Close()

	var version string
	if err := db.QueryRow("SELECT @@version").Scan(&version); err != nil ||
		!strings.HasPrefix(version, "8.0.") {
		fail("SELECT @@version: %v %q", err, version)
	}
	if _, err := db.Exec("SET NAMES utf8mb4"); err != nil {
		fail("SET NAMES: %v", err)
	}
	// Errors come back as MySQL errors and leave the connection usable.
	_, err = db.Exec("SELEKT 1")
	var myErr *mysql.MySQLError
	if !errors.As(err, &myErr) || myErr.Number != 1064 {
		fail("expected a 1064 parse error, got %v", err)
	}
	if cfg.MultiStatements {
		// One COM_QUERY holding two statements: two result sets.
		rows, err := db.Query("SELECT 1; SELECT 'two'")
		if err != nil {
			fail("multi-statement: %v", err)
		}
		var first int64
		var second string
		if !rows.Next() || rows.Scan(&first) != nil || first != 1 {
			fail("multi-statement: first result set")
		}
		if rows.Next() || !rows.NextResultSet() || !rows.Next() || rows.Scan(&second) != nil ||
			second != "two" {
			fail("multi-statement: second result set")
		}
		rows.Close()
	}
	fmt.Println("ok: version", version)
	if *tlsCA != "" {
		fmt.Println("ok: tls", checkSessionTLS(db))
	}
	if *tlsResume {
		fmt.Println("ok: tls resumed:", checkResumed(db))
	}
}
