#!/usr/bin/env bash
# Check deploy/nginx.conf with `nginx -t`, as nginx would load it from conf.d, with a
# throw-away self-signed certificate in place of the commission's. Used by .ci/run.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=ethics.example.gov \
  -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
sed -e "s|/etc/letsencrypt/live/ethics.example.gov/fullchain.pem|$work/cert.pem|" \
    -e "s|/etc/letsencrypt/live/ethics.example.gov/privkey.pem|$work/key.pem|" \
    -e "s|/var/log/nginx/ethicsbot.access.log|$work/access.log|" nginx.conf > "$work/site.conf"
cat > "$work/nginx.conf" <<CONF
pid $work/nginx.pid;
error_log $work/error.log;
events {}
http {
    client_body_temp_path $work/body;
    proxy_temp_path $work/proxy;
    fastcgi_temp_path $work/fastcgi;
    uwsgi_temp_path $work/uwsgi;
    scgi_temp_path $work/scgi;
    include $work/site.conf;
}
CONF
nginx -q -t -c "$work/nginx.conf" -p "$work/"
echo "deploy/nginx.conf: nginx -t passed"
