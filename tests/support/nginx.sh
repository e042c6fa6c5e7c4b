# Debian's nginx as the current user on 127.0.0.1, for the HTTP tests and the HTTP benchmark.
# Source it, then:
#   nginx_start DIR     serve DIR (read-only, no compression, ranges honoured) on a free port
#                       of 127.0.0.1; sets $nginx_url (http://127.0.0.1:PORT), $nginx_port,
#                       $nginx_log (the access log) and $nginx_dir (config, pid, logs, temps).
#                       Exits 77 (skipped) when nginx is missing; returns 1 when it will not start.
#   nginx_stop          stop it (also registered as an EXIT trap by nginx_start, chained with
#                       any EXIT trap already set)
#   nginx_log_clear     empty the access log (nginx keeps writing to the same file)
#   nginx_bytes         sum of $body_bytes_sent over the access log
#   nginx_requests      number of requests in the access log
# Access log lines are tab-separated: request line, status, $body_bytes_sent, Range header
# ("-" when none). Nothing is written outside $nginx_dir: no root paths.
nginx_bin=
for _c in nginx /usr/sbin/nginx /sbin/nginx; do
    if command -v "$_c" >/dev/null 2>&1; then nginx_bin=$(command -v "$_c"); break; fi
done

nginx_free_port() {
    # A random high port that nothing listens on now (ss, when present, tells); a race with
    # another process is possible but short, and nginx_start tries another port when the bind
    # fails.
    local port i
    for i in 1 2 3 4 5 6 7 8; do
        port=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
        if ! command -v ss >/dev/null 2>&1 || ! ss -Htln "sport = :$port" 2>/dev/null | grep -q .; then
            break
        fi
    done
    echo "$port"
}

nginx_start() {
    local root
    root=$(cd "$1" && pwd) || return 1
    if [ -z "$nginx_bin" ]; then
        echo "nginx not installed: skipped"
        exit 77
    fi
    nginx_dir=$(mktemp -d "${TMPDIR:-/tmp}/blvl-nginx.XXXXXX")
    mkdir -p "$nginx_dir/logs" "$nginx_dir/tmp"
    nginx_log=$nginx_dir/logs/access.log
    local prev
    prev=$(trap -p EXIT | sed -e "s/^trap -- '//" -e "s/' EXIT\$//")
    # shellcheck disable=SC2064
    trap "nginx_stop; $prev" EXIT
    local try
    for try in 1 2 3 4 5 6 7 8; do
        nginx_port=$(nginx_free_port)
        # Run as root, nginx would hand its workers to "nobody"; keep them the current user.
        local user=
        [ "$(id -u)" = 0 ] && user="user $(id -un) $(id -gn);"
        cat >"$nginx_dir/nginx.conf" <<EOF
$user
worker_processes 1;
daemon on;
pid $nginx_dir/nginx.pid;
error_log $nginx_dir/logs/error.log warn;
events { worker_connections 64; }
http {
    access_log off;
    log_format blvl '\$request\t\$status\t\$body_bytes_sent\t\$http_range';
    client_body_temp_path $nginx_dir/tmp/body;
    proxy_temp_path $nginx_dir/tmp/proxy;
    fastcgi_temp_path $nginx_dir/tmp/fastcgi;
    uwsgi_temp_path $nginx_dir/tmp/uwsgi;
    scgi_temp_path $nginx_dir/tmp/scgi;
    types { application/octet-stream blvl; }
    default_type application/octet-stream;
    sendfile on;
    gzip off;
    keepalive_requests 10000;
    server {
        listen 127.0.0.1:$nginx_port;
        server_name localhost;
        root $root;
        access_log $nginx_log blvl;
        location / { }
    }
}
EOF
        if "$nginx_bin" -p "$nginx_dir" -c "$nginx_dir/nginx.conf" -e "$nginx_dir/logs/error.log" 2>"$nginx_dir/start.err"; then
            local i
            for i in $(seq 50); do
                [ -s "$nginx_dir/nginx.pid" ] && break
                sleep 0.05
            done
            nginx_url=http://127.0.0.1:$nginx_port
            return 0
        fi
        grep -q "Address already in use" "$nginx_dir/start.err" || break
    done
    echo "nginx would not start: $(cat "$nginx_dir/start.err")"
    return 1
}

nginx_stop() {
    [ -n "${nginx_dir:-}" ] || return 0
    if [ -s "$nginx_dir/nginx.pid" ]; then
        local pid
        pid=$(cat "$nginx_dir/nginx.pid")
        kill -QUIT "$pid" 2>/dev/null
        local i
        for i in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.05
        done
        kill -KILL "$pid" 2>/dev/null
    fi
    rm -rf "$nginx_dir"
    nginx_dir=
}

nginx_log_clear() {
    : >"$nginx_log"
}

nginx_bytes() {
    awk -F'\t' '{ s += $3 } END { print s + 0 }' "$nginx_log"
}

nginx_requests() {
    wc -l <"$nginx_log" | tr -d ' '
}
