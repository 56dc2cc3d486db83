// TLS for the scripted session (main.go): the server's certificate verified against a CA file,
// as an application that pins its database's CA does, with go-sql-driver's own mechanism —
// a tls.Config registered under a name (mysql.RegisterTLSConfig) that the DSN's tls=
// parameter picks.
//
//	mysqlclient -dsn 'app:secret@tcp(127.0.0.1:3306)/' -tls-ca ca.pem \
//	    [-tls-cert client-cert.pem -tls-key client-key.pem] [-server-name NAME]
//	    [-tls-version 1.2|1.3] [-tls-resume] [-expect-tls-failure]
//
// -tls-resume keeps TLS sessions (tickets) and, after the scripted session, opens one more
// connection, which must resume the session and log in again.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"

	"github.com/go-sql-driver/mysql"
)

// The name the DSN's tls= parameter refers to.
const tlsConfigName = "custom"

// Whether the last TLS handshake resumed a session (with -tls-resume).
var tlsResumed atomic.Bool

// registerTLS registers a tls.Config that trusts the certificates in caFile alone and, when
// certFile is given, presents that client certificate. An empty serverName leaves the driver
// to verify the DSN's host (a name or an address, both checked against the certificate's SAN).
// version "1.2" or "1.3" allows that version alone; "" both. resume keeps sessions to resume.
func registerTLS(caFile, certFile, keyFile, serverName, version string, resume bool) error {
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return err
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		return fmt.Errorf("%s: no PEM certificate", caFile)
	}
	config := &tls.Config{RootCAs: roots, ServerName: serverName, MinVersion: tls.VersionTLS12}
	switch version {
	case "":
	case "1.2":
		config.MaxVersion = tls.VersionTLS12
	case "1.3":
		config.MinVersion = tls.VersionTLS13
	default:
		return fmt.Errorf("-tls-version %q: 1.2 or 1.3", version)
	}
	if certFile != "" || keyFile != "" {
		pair, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return err
		}
		config.Certificates = []tls.Certificate{pair}
	}
	if resume {
		config.ClientSessionCache = tls.NewLRUClientSessionCache(4)
		config.VerifyConnection = func(state tls.ConnectionState) error {
			tlsResumed.Store(state.DidResume)
			return nil
		}
	}
	return mysql.RegisterTLSConfig(tlsConfigName, config)
}

// checkResumed drops the pool's connections and opens a new one, which must resume the TLS
// session of an earlier one and log in (the account's REQUIRE met by what the session holds).
// Returns "… as USER@HOST".
func checkResumed(db *sql.DB) string {
	db.SetMaxIdleConns(0)
	tlsResumed.Store(false)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		fail("a connection on a resumed TLS session: %v", err)
	}
	defer conn.Close()
	if !tlsResumed.Load() {
		fail("a new connection did not resume the TLS session")
	}
	var user, variable, version string
	if err := conn.QueryRowContext(ctx, "SELECT CURRENT_USER()").Scan(&user); err != nil {
		fail("CURRENT_USER() on a resumed TLS session: %v", err)
	}
	err = conn.QueryRowContext(ctx, "SHOW STATUS LIKE 'Ssl_version'").Scan(&variable, &version)
	if err != nil || version == "" {
		fail("Ssl_version on a resumed TLS session: %v %q", err, version)
	}
	return fmt.Sprintf("a new connection resumed a %s session and logged in as %s", version, user)
}

// certificateRefused tells whether a failed connect was Go's verification of the server's
// certificate (an unknown authority, a name it does not answer to) rather than anything else.
func certificateRefused(err error) bool {
	var verification *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var hostname x509.HostnameError
	return errors.As(err, &verification) || errors.As(err, &unknown) || errors.As(err, &hostname)
}

// checkSessionTLS asks the server what this session's TLS is (empty for a plain connection)
// and fails unless it is TLS 1.2 or 1.3 with a cipher; then sends a value of more than 16 MiB
// and reads it back, so that MySQL packets split at 0xFFFFFF bytes cross many TLS records
// each way. Returns "TLSv1.3 TLS_AES_…".
func checkSessionTLS(db *sql.DB) string {
	// One connection for both questions: database/sql may hold several.
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		fail("a connection: %v", err)
	}
	defer conn.Close()
	status := func(name string) string {
		var variable, value string
		row := conn.QueryRowContext(ctx, "SHOW STATUS LIKE '"+name+"'")
		if err := row.Scan(&variable, &value); err != nil {
			fail("SHOW STATUS LIKE '%s': %v", name, err)
		}
		return value
	}
	version, cipher := status("Ssl_version"), status("Ssl_cipher")
	if (version != "TLSv1.2" && version != "TLSv1.3") || cipher == "" {
		fail("the session's TLS: Ssl_version %q, Ssl_cipher %q", version, cipher)
	}
	big := bigValue()
	var back string
	if err := conn.QueryRowContext(ctx, "SELECT ? AS payload", big).Scan(&back); err != nil {
		fail("a %d-byte value through TLS: %v", len(big), err)
	}
	if back != big {
		fail("a %d-byte value through TLS came back as %d different bytes", len(big), len(back))
	}
	return fmt.Sprintf("%s %s (a %d-byte value each way)", version, cipher, len(big))
}

// bigValue is 17,000,000 bytes — more than one MySQL packet (0xFFFFFF) — that are not all alike.
func bigValue() string {
	var b strings.Builder
	for i := 0; b.Len() < 17_000_000; i++ {
		fmt.Fprintf(&b, "%08x", i)
	}
	return b.String()[:17_000_000]
}
