#!/usr/bin/env bash
# Checks a built site's nginx include with `nginx -t`, inside a server { } whose root is the
# site, as docs/deploying.md tells users to include it.
#
#     scripts/check_nginx_snippet.sh SITE
#
# Needs nginx (Debian: apt-get install nginx). Prints one line and exits 0 when nginx accepts it.
set -euo pipefail
site=$(cd "${1:?usage: check_nginx_snippet.sh SITE}" && pwd)
snippet=$site/.bundlepress-hosting/nginx.conf
[[ -f $snippet ]] || { echo "check_nginx_snippet.sh: $snippet does not exist; build the site first" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cat > "$scratch/nginx.conf" <<CONF
pid $scratch/nginx.pid;
error_log $scratch/error.log;
events {}
http {
    access_log off;
    server {
        listen unix:$scratch/nginx.sock;
        root $site;
        include $snippet;
    }
}
CONF
nginx -t -q -e "$scratch/error.log" -p "$scratch" -c "$scratch/nginx.conf"
echo "nginx -t accepts $snippet"
