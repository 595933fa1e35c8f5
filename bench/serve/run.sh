#!/usr/bin/env bash
# Serving benchmark: bundlepress serve (origin only, and with the edge layer) against nginx
# (gzip_static on) on the same files, loopback only, bounded runs of wrk.
#
#   bench/serve/run.sh            # from the repository root; needs wrk and nginx (apt-get install wrk nginx)
#
# Cases: the manifest (small JSON), a ~200 KB gzip bundle fetched with Accept-Encoding: gzip,
# and a revalidation (If-None-Match with that server's gzip ETag; 304 once the conditional
# layer is in the chain). All three servers run at once and each case is measured on each in
# turn (so load from elsewhere on the machine hits all alike): `wrk -t2 -c64
# -d${BENCH_DURATION:-10s} --latency` after a 2 s warm-up, ${BENCH_ROUNDS:-1} round(s), the best
# kept. Prints requests/s and p99 per server and the ratio to nginx.
set -euo pipefail
cd "$(dirname "$0")/../.."

DURATION="${BENCH_DURATION:-10s}"
ROUNDS="${BENCH_ROUNDS:-1}"
for tool in wrk nginx curl python3; do
    command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install -y wrk nginx curl" >&2; exit 1; }
done

echo "== building bundlepress (release)" >&2
swift build -c release --product bundlepress >&2
BINARY="$(swift build -c release --show-bin-path)/bundlepress"

WORK="$(mktemp -d)"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

echo "== site: the example build plus a synthetic ~200 KB gzip bundle" >&2
cp -r pipeline.yml exports "$WORK/"
(cd "$WORK" && "$BINARY" build --quiet)
BIG="$(python3 bench/serve/make_big_bundle.py "$WORK/site" 200000)"
chmod -R go+rX "$WORK"  # nginx workers run as nobody
MANIFEST=/bundles/manifest.json

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

start_bundlepress() { # NAME FLAG…; sets BASE
    local out="$WORK/serve-$1.out"
    shift
    "$BINARY" serve --dir "$WORK/site" --port 0 --quiet "$@" >"$out" 2>"$out.err" &
    PIDS+=($!)
    for _ in $(seq 100); do
        grep -q '^Serving ' "$out" 2>/dev/null && break
        sleep 0.1
    done
    BASE="$(sed -E 's/^Serving .* at (http[^ ]*)\/$/\1/' "$out")"
}

start_nginx() { # sets BASE
    local port
    port="$(free_port)"
    mkdir -p "$WORK/nginx"
    cat >"$WORK/nginx/nginx.conf" <<NGINX
worker_processes auto;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 4096; }
http {
    include /etc/nginx/mime.types;
    types { application/octet-stream bundle; }
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    gzip_static on;
    gzip_vary on;
    client_body_temp_path $WORK/nginx/body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;
    server {
        listen 127.0.0.1:$port;
        root $WORK/site;
        location ~ \.gz\$ { return 404; }
        location = /bundles/manifest.json {
            add_header Cache-Control "public, max-age=60, s-maxage=300";
            add_header Access-Control-Allow-Origin "*";
        }
        location /bundles/ {
            add_header Cache-Control "public, max-age=31536000, immutable";
            add_header Access-Control-Allow-Origin "*";
        }
    }
}
NGINX
    nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" 2>>"$WORK/nginx/error.log" &
    PIDS+=($!)
    for _ in $(seq 50); do
        curl -s -o /dev/null "http://127.0.0.1:$port$MANIFEST" && break
        sleep 0.1
    done
    BASE="http://127.0.0.1:$port"
}

# run_case BASE PATH HEADER... → "req/s p99ms status"
run_case() {
    local base="$1" path="$2"
    shift 2
    local curl_headers=() wrk_headers=()
    for header in "$@"; do
        curl_headers+=(-H "$header")
        wrk_headers+=(-H "$header")
    done
    local status
    status="$(curl -s -o /dev/null -w '%{http_code}' "${curl_headers[@]}" "$base$path")"
    wrk -t2 -c64 -d2s "${wrk_headers[@]}" "$base$path" >/dev/null
    wrk -t2 -c64 -d"$DURATION" --latency "${wrk_headers[@]}" "$base$path" >"$WORK/wrk.out"
    awk -v status="$status" '
        /Requests\/sec:/ { rps = $2 }
        /^ +99%/ {
            v = $2; unit = v; sub(/[0-9.]+/, "", unit); sub(/[a-z]+$/, "", v)
            p99 = (unit == "us") ? v / 1000 : (unit == "s") ? v * 1000 : v
        }
        /Non-2xx or 3xx responses|Socket errors/ { errors = errors " " $0 }
        END { printf "%.0f %.2f %s%s\n", rps, p99, status, errors }
    ' "$WORK/wrk.out"
}

gzip_etag() { # BASE PATH
    curl -s -o /dev/null -D - -H 'Accept-Encoding: gzip' "$1$2" | awk 'tolower($1) == "etag:" { sub(/\r$/, "", $2); print $2 }'
}

echo "== running (each case: 2 s warm-up, then $DURATION, $ROUNDS round(s))" >&2
declare -A BASES ETAGS
start_bundlepress origin --no-edge
BASES[origin]="$BASE"
start_bundlepress edge
BASES[edge]="$BASE"
start_nginx
BASES[nginx]="$BASE"
for server in origin edge nginx; do
    ETAGS[$server]="$(gzip_etag "${BASES[$server]}" "$BIG")"
done
for round in $(seq "$ROUNDS"); do
    for server in origin edge nginx; do
        echo "$server manifest $(run_case "${BASES[$server]}" "$MANIFEST")" >>"$WORK/results.txt"
    done
    for server in origin edge nginx; do
        echo "$server bundle-gzip $(run_case "${BASES[$server]}" "$BIG" 'Accept-Encoding: gzip')" >>"$WORK/results.txt"
    done
    for server in origin edge nginx; do
        echo "$server revalidate $(run_case "${BASES[$server]}" "$BIG" 'Accept-Encoding: gzip' "If-None-Match: ${ETAGS[$server]}")" >>"$WORK/results.txt"
    done
done

echo "sizes: manifest $(stat -c %s "$WORK/site$MANIFEST") B; bundle $(stat -c %s "$WORK/site$BIG") B, gzip $(stat -c %s "$WORK/site$BIG.gz") B; $(nproc) CPUs"
python3 - "$WORK/results.txt" <<'PY'
import sys
rows = {}
for line in open(sys.argv[1]):
    name, case, rps, p99, status, *errors = line.split(maxsplit=5)
    row = (float(rps), float(p99), status, " ".join(errors))
    if (name, case) not in rows or row[0] > rows[(name, case)][0]:
        rows[(name, case)] = row
print("| case | origin (--no-edge) req/s | p99 ms | edge req/s | p99 ms | nginx req/s | p99 ms | origin/nginx | edge/nginx | status (origin/edge/nginx) |")
print("|---|---|---|---|---|---|---|---|---|---|")
for case in ["manifest", "bundle-gzip", "revalidate"]:
    o, e, n = rows[("origin", case)], rows[("edge", case)], rows[("nginx", case)]
    print(f"| {case} | {o[0]:.0f} | {o[1]:.2f} | {e[0]:.0f} | {e[1]:.2f} | {n[0]:.0f} | {n[1]:.2f} | {o[0]/n[0]:.2f} | {e[0]/n[0]:.2f} | {o[2]}/{e[2]}/{n[2]} |")
for key, row in rows.items():
    if row[3]:
        print(f"warning: {key[0]} {key[1]}: {row[3]}")
PY
