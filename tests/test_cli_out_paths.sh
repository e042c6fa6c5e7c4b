#!/usr/bin/env bash
# The out-file rule (docs/CLI.md, "Output files"), for every command that writes a file: bake -o
# and --symbols, pack -o, export -o, rewrite OUT, probe --png, fetch -o.
# - a character device, a FIFO or a pipe (/dev/stdout) is written through and stays what it is;
# - a directory is refused (argument, exit 1), nothing written;
# - a symlink stays a link and the file it names gets the new bytes;
# - a replaced file keeps its mode (and, as root, its owner); a new one gets 0666 & ~umask;
# - SIGINT, SIGTERM and SIGHUP during a write remove the temporary, leave the old file as it
#   was, and end the program as the signal would (exit 128 + N).
# As root (the normal case here) the "device" is a null device made with mknod in the work
# folder, so even a program that breaks the rule cannot replace the machine's /dev/null;
# otherwise /dev/null itself; and "stdout" is a link of the work folder to /proc/self/fd/1,
# what /dev/stdout is, for the same reason. fetch uses a local server started here (python3).
. "$BLVL_SRC/tests/support/cli.sh"
cli_workdir
py=$(command -v /usr/bin/python3 || command -v python3) || { echo "python3 missing: skipped"; exit 77; }
S=$src/tests/data/sections
pack_args=(meta=$S/meta.json sim=$S/sim.json)
if [ "$(id -u)" = 0 ] && mknod null c 1 3 2>/dev/null; then
    dev=$PWD/null
else
    dev=/dev/null
fi
ln -s /proc/self/fd/1 stdout
is_chardev() { [ -c "$1" ] && [ ! -L "$1" ]; }
mode_of() { stat -L -c %a "$1"; }

rc 0 bake "$src/tests/data/hmap/sample.hmap" -o lv.blvl
rc 0 pack -o small.blvl "${pack_args[@]}"
cp lv.blvl keep.blvl

# --- devices: written through, the node stays ---------------------------------------------
rc 0 bake "$src/tests/data/hmap/sample.hmap" -o "$dev"
ok "bake -o DEVICE: the node stays a character device" is_chardev "$dev"
rc 0 bake "$src/tests/data/hmap/sample.hmap" -o sym.blvl --symbols "$dev"
ok "bake --symbols DEVICE: the node stays a character device" is_chardev "$dev"
rc 0 pack -o "$dev" "${pack_args[@]}"
ok "pack -o DEVICE: the node stays a character device" is_chardev "$dev"
rc 0 export lv.blvl -o "$dev"
ok "export -o DEVICE: the node stays a character device" is_chardev "$dev"
rc 0 rewrite small.blvl "$dev"
ok "rewrite IN DEVICE: the node stays a character device" is_chardev "$dev"
rc 0 probe lv.blvl --camera overview --png "$dev"
ok "probe --png DEVICE: the node stays a character device" is_chardev "$dev"
ok "no temporary beside the device" test -z "$(compgen -G "$dev.tmp.*")"

# /dev/stdout (the link "stdout") into a pipe: the same bytes as a file (pack's header comes last: it spools).
"$blvl" pack -o stdout "${pack_args[@]}" | cat >piped.blvl
ok "pack -o stdout | cat: the level's bytes" cmp piped.blvl small.blvl
# bake's report line goes to stderr then: stdout carries the level alone.
"$blvl" bake "$src/tests/data/hmap/sample.hmap" -o stdout 2>err | cat >piped2.blvl
ok "bake -o stdout | cat: the level's bytes" cmp piped2.blvl lv.blvl
has err "baked stdout: 48 colliders"
"$blvl" export lv.blvl -o stdout | cat >piped.glb
"$blvl" export lv.blvl -o file.glb
ok "export -o stdout | cat: the .glb's bytes" cmp piped.glb file.glb
# TMPDIR without a folder: the spool falls back to memory.
TMPDIR=$PWD/none "$blvl" pack -o stdout "${pack_args[@]}" | cat >piped3.blvl
ok "pack -o stdout without a TMPDIR: the level's bytes" cmp piped3.blvl small.blvl

# A FIFO read by cat in the background.
mkfifo fifo
for cmd in "pack -o fifo ${pack_args[*]}" "bake $src/tests/data/hmap/sample.hmap -o fifo" \
    "rewrite small.blvl fifo"; do
    timeout 10 cat fifo >from_fifo &
    cat_pid=$!
    # shellcheck disable=SC2086
    timeout 10 "$blvl" $cmd >out 2>err
    got=$?
    wait "$cat_pid"
    ok "$cmd: exit 0 (got $got: $(head -c 200 err))" test "$got" = 0
    ok "$cmd: the FIFO stays a FIFO" test -p fifo
    case $cmd in
    bake*) want=lv.blvl ;;
    *) want=small.blvl ;;
    esac
    ok "$cmd: cat read the level through the FIFO" cmp from_fifo "$want"
done

# --- a directory: refused, nothing written ------------------------------------------------
mkdir dir
for cmd in "pack -o dir ${pack_args[*]}" "bake $src/tests/data/hmap/sample.hmap -o dir" \
    "bake $src/tests/data/hmap/sample.hmap -o x.blvl --symbols dir" "export lv.blvl -o dir" \
    "rewrite small.blvl dir" "probe lv.blvl --camera overview --png dir"; do
    # shellcheck disable=SC2086
    rc 1 $cmd
    has err "argument: output: dir is a directory"
    ok "$cmd: nothing written in dir" test -z "$(ls -A dir)"
done
none x.blvl

# --- a symlink: the link stays, the file it names is replaced -----------------------------
mkdir sub
cp small.blvl sub/real.blvl
ln -s real.blvl sub/link.blvl
ln -s sub/link.blvl chain.blvl # a link to a link, relative to each one's folder
rc 0 bake "$src/tests/data/hmap/sample.hmap" -o chain.blvl
ok "bake -o LINK: the link stays a link" test -L chain.blvl
ok "bake -o LINK: the link's link stays a link" test -L sub/link.blvl
ok "bake -o LINK: the file it names has the new bytes" cmp sub/real.blvl lv.blvl
rc 0 pack -o chain.blvl "${pack_args[@]}"
ok "pack -o LINK: the link stays" test -L chain.blvl
ok "pack -o LINK: the file it names has the new bytes" cmp sub/real.blvl small.blvl
ln -s made.blvl sub/dangling.blvl
rc 0 rewrite small.blvl sub/dangling.blvl
ok "rewrite to a dangling link: the link stays" test -L sub/dangling.blvl
ok "rewrite to a dangling link: the file it names is made" cmp sub/made.blvl small.blvl
ok "no temporary beside the link" test -z "$(compgen -G "sub/*.tmp.*")"

# --- modes (and owner) kept; a new file under the umask ------------------------------------
cp small.blvl m600.blvl && chmod 600 m600.blvl
cp small.blvl m640.blvl && chmod 640 m640.blvl
rc 0 bake "$src/tests/data/hmap/sample.hmap" -o m600.blvl
ok "bake over a 0600 file keeps 0600 (got $(mode_of m600.blvl))" test "$(mode_of m600.blvl)" = 600
rc 0 export lv.blvl -o m640.blvl
ok "export over a 0640 file keeps 0640 (got $(mode_of m640.blvl))" test "$(mode_of m640.blvl)" = 640
chmod 600 sub/real.blvl
rc 0 rewrite small.blvl chain.blvl
ok "rewrite through a link keeps the target's 0600 (got $(mode_of sub/real.blvl))" \
    test "$(mode_of sub/real.blvl)" = 600
(umask 027 && "$blvl" pack -o new640.blvl "${pack_args[@]}" >/dev/null)
ok "a new file under umask 027 is 0640 (got $(mode_of new640.blvl))" test "$(mode_of new640.blvl)" = 640
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
    cp small.blvl owned.blvl && chown nobody: owned.blvl && chmod 640 owned.blvl
    owner=$(stat -c %u:%g owned.blvl)
    rc 0 rewrite small.blvl owned.blvl
    ok "rewrite over another owner's file keeps its owner (got $(stat -c %u:%g owned.blvl), was $owner)" \
        test "$(stat -c %u:%g owned.blvl)" = "$owner"
fi

# --- fetch -o: through a local server ------------------------------------------------------
# serve.py FILE KEEP STALL PORTFILE: answers every request 200 with the whole length, sends
# KEEP bytes, waits STALL seconds, closes; gone after 20 s whatever happens.
cat >serve.py <<'EOF'
import os, socket, sys, threading, time
data = open(sys.argv[1], "rb").read()
keep, stall = int(sys.argv[2]), float(sys.argv[3])
keep = len(data) if keep < 0 else keep
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0))
s.listen(8)
open(sys.argv[4] + ".new", "w").write(str(s.getsockname()[1]))
os.rename(sys.argv[4] + ".new", sys.argv[4])
def serve(c):
    try:
        req = b""
        while b"\r\n\r\n" not in req:
            more = c.recv(4096)
            if not more:
                return
            req += more
        head = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n" % len(data)
        c.sendall(head if req.startswith(b"HEAD") else head + data[:keep])
        time.sleep(stall)
    except OSError:
        pass
    finally:
        c.close()
threading.Thread(target=lambda: (time.sleep(20), os._exit(0)), daemon=True).start()
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
EOF
servers=()
trap 'for p in "${servers[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$work"' EXIT
serve() { # FILE KEEP STALL -> $url
    rm -f port
    "$py" serve.py "$1" "$2" "$3" port &
    servers+=($!)
    for _ in $(seq 250); do
        [ -s port ] && break
        sleep 0.02
    done
    url=http://127.0.0.1:$(cat port)/lv.blvl
}
export BLVL_HTTP_RETRIES=0
serve lv.blvl -1 0
url_whole=$url
rc 0 fetch "$url_whole" -o "$dev"
ok "fetch -o DEVICE: the node stays a character device" is_chardev "$dev"
cp small.blvl f600.blvl && chmod 600 f600.blvl
rc 0 fetch "$url_whole" -o f600.blvl
ok "fetch over a 0600 file keeps 0600 (got $(mode_of f600.blvl))" test "$(mode_of f600.blvl)" = 600
ok "fetch: the bytes" cmp f600.blvl lv.blvl
(umask 027 && "$blvl" fetch "$url_whole" -o f640.blvl >/dev/null 2>&1)
ok "fetch: a new file under umask 027 is 0640 (got $(mode_of f640.blvl))" test "$(mode_of f640.blvl)" = 640
"$blvl" fetch "$url_whole" -o stdout 2>err | cat >fetched.blvl
ok "fetch -o stdout | cat: the level's bytes" cmp fetched.blvl lv.blvl
has err "stdout: "
rc 1 fetch "$url_whole" -o dir
has err "argument: output: dir is a directory"
ln -s flink-target.blvl flink.blvl
rc 0 fetch "$url_whole" -o flink.blvl
ok "fetch -o LINK: the link stays" test -L flink.blvl
ok "fetch -o LINK: the file it names has the bytes" cmp flink-target.blvl lv.blvl

# --- signals: the temporary goes, the old file stays ---------------------------------------
serve lv.blvl 4096 15
url_stall=$url
# interrupted SIGNAL CODE WHAT ARGS...: start `blvl ARGS` (OUT is old.blvl), wait for its
# temporary, send SIGNAL; it must exit 128 + CODE and leave old.blvl as it was and no temporary.
interrupted() {
    local sig=$1 code=$2 what=$3
    shift 3
    cp keep.blvl old.blvl
    # Job control: a background job of a script would start with SIGINT ignored.
    set -m
    "$blvl" "$@" >out 2>err &
    local pid=$!
    set +m
    local seen=
    for _ in $(seq 250); do
        seen=$(compgen -G "old.blvl.*")
        [ -n "$seen" ] && break
        sleep 0.02
    done
    ok "$what: a temporary appeared while writing" test -n "$seen"
    sleep 0.2
    kill -s "$sig" "$pid"
    { wait "$pid"; } 2>/dev/null # without bash's "Hangup" notice
    local got=$?
    ok "$what: SIG$sig ends it as the signal would (exit $got, want $((128 + code)))" \
        test "$got" = $((128 + code))
    ok "$what: SIG$sig leaves no temporary ($(compgen -G 'old.blvl.*' | tr '\n' ' '))" \
        test -z "$(compgen -G 'old.blvl.*')"
    ok "$what: SIG$sig leaves the old file as it was" cmp old.blvl keep.blvl
}
interrupted INT 2 "fetch -o" fetch "$url_stall" -o old.blvl
interrupted TERM 15 "fetch -o" fetch "$url_stall" -o old.blvl
interrupted HUP 1 "fetch -o" fetch "$url_stall" -o old.blvl
# pack with a game section from a FIFO that stays open: the writer's temporary exists.
mkfifo slow_in
sleep 15 >slow_in & # opens the FIFO for writing once pack opens it, then writes nothing
holder=$!
servers+=($holder)
interrupted TERM 15 "pack -o" pack -o old.blvl "${pack_args[@]}" game.x=slow_in
interrupted INT 2 "pack -o (second run)" pack -o old.blvl "${pack_args[@]}" game.x=slow_in
kill "$holder" 2>/dev/null

cli_done test_cli_out_paths
