package store

import "ethicsbot/docket"

// OpenAtVersion opens path with its schema brought only to version, to test migrating
// from earlier schemas.
func OpenAtVersion(path string, engine *docket.Engine, version int) (*Store, error) {
	return open(path, engine, version)
}
