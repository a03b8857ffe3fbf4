package config

import (
	"fmt"

	"ethicsbot/docket"
)

// fileDocuments is the documents section of the file: how large a document of a case file
// may be, in whole megabytes (default docket.DefaultDocumentLimit, 25 MB).
type fileDocuments struct {
	MaxMB *int `yaml:"max_mb"`
}

// maxDocumentMB bounds documents.max_mb: a document is read whole into memory and written
// in one transaction, and SQLite's default limit on a BLOB is 1,000,000,000 bytes.
const maxDocumentMB = 500

// parseDocuments applies the documents section to cfg.
func parseDocuments(cfg *Config, f fileConfig, at func(path ...string) func(error) error) error {
	cfg.DocumentLimit = docket.DefaultDocumentLimit
	if f.Documents.MaxMB == nil {
		return nil
	}
	if mb := *f.Documents.MaxMB; mb < 1 || mb > maxDocumentMB {
		return at("documents",
			"max_mb")(fmt.Errorf("documents.max_mb: %d is not a size from 1 to %d megabytes", mb, maxDocumentMB))
	}
	cfg.DocumentLimit = int64(*f.Documents.MaxMB) << 20
	return nil
}
