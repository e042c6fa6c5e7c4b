#!/usr/bin/env python3
"""A fault-injecting HTTP server for the tests, on 127.0.0.1 only, in front of nginx.

Each request is forwarded to the upstream server (nginx, tests/support/nginx.sh) with its
method, path and Range header; the answer is then altered as the mode says:

  pass        unchanged
  flip        one byte flipped at file offset --at (inside a section), wherever that offset
              falls in the answer: a whole file, one range, or a part of a multipart answer
  cut         the --nth answer with a body (1 = the first) promises its whole length but sends
              only --keep bytes of it (default: half) and closes the connection; later
              answers are unchanged (a client should resume from where it stopped). With
              --cut-at, the first answer holding that file offset (in a whole file, a range or a
              part of a multipart answer) is cut just before it instead
  multi200    a request for several ranges gets 200 and the whole file, sent in 16 KiB pieces
              2 ms apart (as many CDNs and object stores answer); the log says how many body
              bytes went out before the client closed; single ranges are forwarded
  coalesce    a request for several ranges is forwarded as one range from the first asked
              byte to the last: a 206 of one part covering them and the gaps between them
  badmultipart  a multipart answer has the boundary of its second delimiter altered
  norange     the Range header is not forwarded: 200 with the whole file, no Accept-Ranges
  replace     after --nth answers, every request for the path is forwarded for --swap instead
              (another file: a new ETag and size, as when a file is replaced on the server)
  status      --nth answers (0 = all) are --code (404, 500...) with a short body; later ones are
              forwarded unchanged
  slow        the status line, the headers and --keep body bytes (default 0), then nothing for
              --stall seconds (a server or network that stalls)
  trickle     the status line and the headers, then the body one byte every --interval seconds
              (default 1: a server far under any sane minimum speed, never silent long enough
              for a stall)
  redirect    302 to --location (default: the path asked, a loop)
  gzip        the answer's body gzip-compressed, with Content-Encoding: gzip (a server that
              compresses whatever it serves, ranges included)

Usage: http_fault.py --upstream http://127.0.0.1:PORT --port-file FILE [--log FILE] [--mode MODE ...]
The server binds a free port of 127.0.0.1 and writes it to --port-file once it listens. With
--log, each answer is one tab-separated line: method and path, Range header ("-" when none),
status, body bytes sent. `GET /-/mode?mode=cut&nth=2` switches to another mode (the same
options, as query parameters; the rest back to their defaults), restarts the answer count and
empties the log, so one server serves a whole test. Python's standard library only.
"""
import argparse
import gzip
import os
import http.client
import http.server
import socketserver
import sys
import threading
import time
import urllib.parse

FORWARDED = ("Content-Type", "Content-Length", "Content-Range", "ETag", "Last-Modified",
             "Accept-Ranges", "Content-Encoding")


class State:
    def __init__(self, args, parser):
        self.args = args
        self.parser = parser
        self.lock = threading.Lock()
        self.answers = 0  # answers counted for --nth
        self.cut_done = False  # cut --cut-at: done once
        self.log = open(args.log, "a", buffering=1) if args.log else None

    def switch(self, query):
        """A new mode from a query string; errors are the caller's 400."""
        argv = ["--upstream", self.args.upstream, "--port-file", self.args.port_file]
        for k, v in urllib.parse.parse_qsl(query, keep_blank_values=True):
            argv += ["--" + k.replace("_", "-"), v]
        args = parse(self.parser, argv)
        args.log = self.args.log
        with self.lock:
            self.args = args
            self.answers = 0
            self.cut_done = False
            if self.log:
                self.log.truncate(0)
                self.log.seek(0)

    def next_answer(self):
        with self.lock:
            self.answers += 1
            return self.answers

    def record(self, line):
        if self.log:
            with self.lock:
                self.log.write(line + "\n")


def content_start(headers):
    """The file offset of the first body byte: 0 for a whole file, the range's start for a 206
    of one range; None for a multipart answer."""
    cr = headers.get("Content-Range")
    if cr:
        # "bytes START-END/TOTAL"
        try:
            return int(cr.split()[1].split("-")[0])
        except (IndexError, ValueError):
            return None
    ctype = headers.get("Content-Type", "")
    if ctype.startswith("multipart/"):
        return None
    return 0


def boundary_of(headers):
    ctype = headers.get("Content-Type", "")
    for p in ctype.split(";"):
        p = p.strip()
        if p.startswith("boundary="):
            return p[len("boundary="):].strip('"').encode()
    return None


def flip_at(body, headers, at):
    """The body with the byte at file offset `at` flipped (when the answer covers it)."""
    i = body_pos(body, headers, at)
    if i is None:
        return body
    body = bytearray(body)
    body[i] ^= 0x5A
    return bytes(body)


def body_pos(body, headers, at):
    """The index in the body of the byte at file offset `at`, or None when the answer does not
    hold it."""
    start = content_start(headers)
    if start is not None:
        return at - start if start <= at < start + len(body) else None
    # multipart/byteranges: each part's own Content-Range places its bytes.
    boundary = boundary_of(headers)
    if not boundary:
        return None
    delim = b"--" + boundary
    pos = 0
    while True:
        i = body.find(delim, pos)
        if i < 0:
            break
        hdr_end = body.find(b"\r\n\r\n", i)
        if hdr_end < 0:
            break
        part_headers = bytes(body[i:hdr_end]).decode("latin-1").split("\r\n")
        data_start = hdr_end + 4
        for h in part_headers:
            if h.lower().startswith("content-range:"):
                try:
                    rng = h.split(":", 1)[1].split()[1].split("/")[0]
                    a, b = (int(x) for x in rng.split("-"))
                except (IndexError, ValueError):
                    continue
                if a <= at <= b:
                    return data_start + at - a
                pos = data_start + (b - a + 1)
                break
        else:
            pos = data_start
    return None


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "blvl-fault"

    def log_message(self, fmt, *args):  # quiet: the --log file says what happened
        pass

    def handle(self):
        try:
            super().handle()
        except (ConnectionResetError, BrokenPipeError):
            pass  # a client that closed a connection (multi200): nothing to answer

    def do_HEAD(self):
        self.answer(head=True)

    def do_GET(self):
        self.answer(head=False)

    def send_plain(self, code, text, head, rng):
        body = text.encode()
        self.send_response(code)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.state.record(f"{self.command} {self.path}\t{rng}\t{code}\t{0 if head else len(body)}")
        if not head:
            self.wfile.write(body)

    def answer(self, head):
        st = self.server.state
        self.state = st
        if self.path.startswith("/-/mode"):
            try:
                st.switch(urllib.parse.urlsplit(self.path).query)
                code, text = 200, "ok\n"
            except ValueError as e:
                code, text = 400, f"{e}\n"
            body = text.encode()
            self.send_response(code)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        a = st.args
        rng = self.headers.get("Range")
        n = st.next_answer()
        path = self.path
        if a.mode == "status" and (a.nth == 0 or n <= a.nth):
            self.send_plain(a.code, f"{a.code} from the fault server\n", head, rng or "-")
            return
        if a.mode == "replace" and n > a.nth:
            path = a.swap
        if a.mode == "redirect":
            self.send_response(302)
            self.send_header("Location", a.location or self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
            st.record(f"{self.command} {self.path}\t{rng or '-'}\t302\t0")
            return
        fwd = {}
        several = bool(rng) and "," in rng
        if rng and a.mode != "norange" and not (a.mode == "multi200" and several):
            fwd["Range"] = rng
        if a.mode == "coalesce" and several:
            spans = [r.split("-") for r in rng.split("=", 1)[1].split(",")]
            fwd["Range"] = "bytes=%d-%d" % (min(int(x) for x, _ in spans),
                                            max(int(y) for _, y in spans))
        for h in ("If-Range", "If-Match", "If-None-Match", "If-Modified-Since"):
            if self.headers.get(h) and a.mode != "norange":
                fwd[h] = self.headers[h]
        up = urllib.parse.urlsplit(a.upstream)
        conn = http.client.HTTPConnection(up.hostname, up.port, timeout=30)
        try:
            conn.request(self.command, path, headers=fwd)
            resp = conn.getresponse()
            body = resp.read()
            status = resp.status
            headers = {k: v for k, v in resp.getheaders() if k in FORWARDED}
        finally:
            conn.close()
        if a.mode == "norange":
            headers.pop("Accept-Ranges", None)
        if a.mode == "gzip" and not head:
            body = gzip.compress(body)
            headers["Content-Length"] = str(len(body))
            headers["Content-Encoding"] = "gzip"
        if a.mode == "trickle" and not head:
            self.send_trickle(status, headers, body, rng)
            return
        if a.mode == "flip" and not head:
            body = flip_at(body, headers, a.at)
        if a.mode == "badmultipart" and boundary_of(headers):
            delim = b"--" + boundary_of(headers)
            second = body.find(delim, body.find(delim) + 1)
            if second >= 0:
                body = body[:second + 2] + b"X" + body[second + 3:]
        keep = len(body)
        close = False
        if a.mode == "cut" and not head:
            at = body_pos(body, headers, a.cut_at) if a.cut_at >= 0 else None
            if a.cut_at >= 0 and at is not None and not st.cut_done:
                st.cut_done = True
                keep = at
                close = True
            elif a.cut_at < 0 and n == a.nth:
                keep = a.keep if a.keep >= 0 else len(body) // 2
                keep = min(keep, len(body))
                close = True
        if a.mode == "multi200" and several and not head:
            self.send_paced(status, headers, body, rng)
            return
        if a.mode == "slow":
            keep = max(0, min(a.keep, len(body)))
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        if close:
            self.send_header("Connection", "close")
        self.end_headers()
        sent = 0 if head else keep
        # Recorded before the body goes: once the client has it, the test may switch modes.
        st.record(f"{self.command} {self.path}\t{rng or '-'}\t{status}\t{sent}")
        try:
            if not head:
                self.wfile.write(body[:keep])
                self.wfile.flush()
            if a.mode == "slow":
                time.sleep(a.stall)
                close = True
        except (BrokenPipeError, ConnectionResetError):
            close = True
        if close:
            self.close_connection = True


    def send_trickle(self, status, headers, body, rng):
        """The headers at once, then one body byte every --interval seconds until the client
        goes away; logged once it is over, with the body bytes that went out."""
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.flush()
        sent = 0
        try:
            while sent < len(body):
                self.wfile.write(body[sent:sent + 1])
                self.wfile.flush()
                sent += 1
                time.sleep(self.state.args.interval)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True
        self.state.record(f"{self.command} {self.path}\t{rng or '-'}\t{status}\t{sent}")

    def send_paced(self, status, headers, body, rng):
        """The whole body in 16 KiB pieces 2 ms apart until the client goes away; logged once
        it is over, with the body bytes that went out."""
        self.send_response(status)
        for k, v in headers.items():
            if k != "Accept-Ranges":
                self.send_header(k, v)
        self.end_headers()
        sent = 0
        try:
            while sent < len(body):
                self.wfile.write(body[sent:sent + 16384])
                self.wfile.flush()
                sent = min(len(body), sent + 16384)
                time.sleep(0.002)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True
        self.state.record(f"{self.command} {self.path}\t{rng}\t{status}\t{sent}")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise ValueError(message)


def parse(p, argv):
    a = p.parse_args(argv)
    if a.mode == "slow" and a.keep < 0:
        a.keep = 0
    if a.mode == "replace" and not a.swap:
        raise ValueError("replace needs --swap PATH")
    return a


def main():
    p = Parser(description=__doc__.split("\n")[0])
    p.add_argument("--upstream", required=True)
    p.add_argument("--mode", default="pass",
                   choices=["pass", "flip", "cut", "norange", "replace", "status", "slow",
                            "multi200", "coalesce", "badmultipart", "trickle", "redirect",
                            "gzip"])
    p.add_argument("--port-file", required=True)
    p.add_argument("--log")
    p.add_argument("--at", type=int, default=0, help="flip: the file offset of the byte")
    p.add_argument("--nth", type=int, default=1)
    p.add_argument("--keep", type=int, default=-1)
    p.add_argument("--cut-at", type=int, default=-1, help="cut: the file offset to cut before")
    p.add_argument("--swap", help="replace: the path served instead")
    p.add_argument("--code", type=int, default=500)
    p.add_argument("--stall", type=float, default=30.0)
    p.add_argument("--interval", type=float, default=1.0, help="trickle: seconds a byte")
    p.add_argument("--location", help="redirect: the Location (default: the path asked)")
    try:
        a = parse(p, sys.argv[1:])
    except ValueError as e:
        print(f"http_fault.py: {e}", file=sys.stderr)
        return 2
    srv = Server(("127.0.0.1", 0), Handler)
    srv.state = State(a, p)
    tmp = a.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(srv.server_address[1]) + "\n")

    os.replace(tmp, a.port_file)  # whole or absent: the test waits for it
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
