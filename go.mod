module ethicsbot

go 1.26

require (
	github.com/mattn/go-sqlite3 v1.14.53
	github.com/rickar/cal/v2 v2.1.13
	github.com/robfig/cron/v3 v3.0.1
	github.com/slack-go/slack v0.36.0
	go.yaml.in/yaml/v3 v3.0.6
)

require github.com/gorilla/websocket v1.5.3 // indirect
