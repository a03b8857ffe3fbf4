// Command ethicsbot runs a municipal ethics commission's complaint docket as its ordinance
// requires. See README.md and the documents it lists in docs/.
package main

import (
	"os"
	"time"
	_ "time/tzdata" // the commission's zone must resolve on machines without a zoneinfo database

	"ethicsbot/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv, time.Now))
}
