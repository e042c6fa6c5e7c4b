"""blvl.open of an http:// URL goes through libblvl-http: a small range server on 127.0.0.1
(this test's own, standard library only) serves the sample level; the answers are the file's.
Also the section cache (cache=FOLDER): a second open reads the sections from it."""
import http.server
import os
import re
import threading

import pytest

import blvl
from conftest import run


class Handler(http.server.BaseHTTPRequestHandler):
    root = None
    served = []

    def log_message(self, *args):
        pass

    def do_HEAD(self):
        self.do_GET(body=False)

    def do_GET(self, body=True):
        path = os.path.join(self.root, os.path.basename(self.path))
        if not os.path.isfile(path):
            self.send_error(404)
            return
        data = open(path, "rb").read()
        m = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
        if m:  # one range: 206; several (or none): the whole file, as many servers answer
            a = int(m.group(1))
            b = min(int(m.group(2)) if m.group(2) else len(data) - 1, len(data) - 1)
            part = data[a:b + 1]
            self.send_response(206)
            self.send_header("Content-Range", "bytes %d-%d/%d" % (a, b, len(data)))
        else:
            part = data
            self.send_response(200)
        self.served.append(len(part))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", '"%d-%d"' % (len(data), int(os.path.getmtime(path))))
        self.send_header("Content-Length", str(len(part)))
        self.end_headers()
        if body:
            self.wfile.write(part)


@pytest.fixture
def server(sample_level):
    Handler.root = os.path.dirname(sample_level[0])
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield "http://127.0.0.1:%d/%s" % (httpd.server_address[1], os.path.basename(sample_level[0]))
    httpd.shutdown()
    httpd.server_close()


def test_open_url(server, sample_level, tmp_path):
    path = sample_level[0]
    with blvl.open(server) as lv:
        assert lv.identity == run("identity", path)[1].decode().strip()
        assert lv.tags() == blvl.open(path).tags()
        assert lv.read("geometry") == run("cat", path, "geometry")[1]
        assert lv.section("meta") == blvl.open(path).meta
    cache = tmp_path / "cache"
    with blvl.open(server, cache=str(cache)) as lv:
        first = lv.read("sim")
    assert any(cache.rglob("*"))  # the sections went into the cache
    with blvl.open(server, cache=str(cache)) as lv:
        assert lv.read("sim") == first
    with pytest.raises(blvl.Error) as e:
        blvl.open(server.rsplit("/", 1)[0] + "/missing.blvl")
    assert e.value.rule == "http"
