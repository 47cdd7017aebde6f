#!/usr/bin/env python3
"""A class's last ten minutes before an assignment's deadline: how long until every grade is out.

A real `arena-server` (grading nothing itself, `[ladder] workers = 0`) and two `arena-worker`
processes on this machine share a PostgreSQL database; STUDENTS students sign up and upload the
Python kit's bots (in turn a copy of the passive bot, the strength bot, and the random bot),
spread evenly over the WINDOW seconds before the deadline, while the teacher's gradebook is
read every 5 s. The assignment is
tournaments/classroom-assignment.toml's: three reference bots (random, passive, strength), its
marks, 100-hand matches, 5 to 40 blocks, 2 copy probes per reference. Prints when each
student's grade came out, the time from the deadline until the last one (the goal: under ten
minutes), and when the copy check's probes were all played.

Run from the repository root after `cargo build --release -p arena -p teenpatti-server`, with
PostgreSQL as .ci/run starts it:

    ARENA_TEST_POSTGRES_URL=postgres://arena:arena@127.0.0.1/arena_test \
        python3 research/assignment_load.py            # 30 students, a 600 s window
    STUDENTS=6 WINDOW=60 python3 research/assignment_load.py   # a quick look

It uses the database's schema `public` of a database of its own: it creates `arena_load` (and
drops it at the end) next to the URL's database.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
import io

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KIT = os.path.join(ROOT, "sample-bots", "python")
STUDENTS = int(os.environ.get("STUDENTS", "30"))
WINDOW = float(os.environ.get("WINDOW", "600"))
BASE_URL = os.environ.get("ARENA_TEST_POSTGRES_URL", "postgres://arena:arena@127.0.0.1/arena_test")
DB_URL = re.sub(r"/[^/]*$", "/arena_load", BASE_URL)


def psql(sql):
    subprocess.run(["su", "postgres", "-c", f'psql -v ON_ERROR_STOP=1 -qc "{sql}"'], check=True)


def kit(name):
    with open(os.path.join(KIT, name), "rb") as f:
        return f.read()


def zipped(files):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in files:
            z.writestr(name, data)
    return buf.getvalue()


def call(address, method, path, body=None, headers=None):
    """(status, body text); waits out 429s."""
    while True:
        req = urllib.request.Request(f"http://{address}{path}", data=body, method=method,
                                     headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            if e.code == 429:
                time.sleep(int(e.headers.get("retry-after", "1")))
                continue
            return e.code, e.read().decode()


def token(address, name):
    status, body = call(address, "POST", "/api/tokens",
                        json.dumps({"name": name, "password": "pass-word-1"}).encode(),
                        {"Content-Type": "application/json"})
    assert status == 201, body
    return "Bearer " + json.loads(body)["token"]


def multipart(file_name, data):
    head = (b"--b0\r\nContent-Disposition: form-data; name=\"language\"\r\n\r\npython\r\n"
            b"--b0\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" +
            file_name.encode() + b"\"\r\n\r\n")
    return head + data + b"\r\n--b0--\r\n"


def main():
    bin_dir = os.path.join(ROOT, "target", "release")
    for b in ("arena-server", "arena-worker"):
        if not os.path.exists(os.path.join(bin_dir, b)):
            sys.exit(f"build first: cargo build --release -p arena -p teenpatti-server ({b} missing)")
    psql("DROP DATABASE IF EXISTS arena_load")
    psql("CREATE DATABASE arena_load OWNER arena")
    work = tempfile.mkdtemp(prefix="assignment-load-")
    processes = []
    try:
        template = open(os.path.join(ROOT, "tournaments", "classroom-assignment.toml")).read()
        contest = template
        contest = re.sub(r"(?m)^workers = \d+", "workers = 0", contest)
        contest = contest.replace('registration = "roster"\nroster = "classroom-roster.csv"\n', "")
        contest = re.sub(r'(?m)^data_dir = .*$', f'data_dir = "{work}/server"', contest)
        contest = contest.replace('"../sample-bots/python/', f'"{KIT}/')
        contest += "\n[uploads]\nuploads_per_hour = 1000\n"
        path = os.path.join(work, "class.toml")

        def start_server(deadline_stamp):
            with open(path, "w") as f:
                f.write(re.sub(r"(?m)^deadline = .*$", f"deadline = {deadline_stamp}", contest))
            server = subprocess.Popen([os.path.join(bin_dir, "arena-server"), path, "--db", DB_URL,
                                       "--listen", "127.0.0.1:0"], stderr=subprocess.PIPE, text=True)
            processes.append(server)
            for line in server.stderr:
                m = re.search(r"open http://([^/]+)/", line)
                if m:
                    return server, m.group(1)
            sys.exit("the server did not start")

        # The accounts first (the site lets ten sign-ups through at once from one address,
        # then one every 6 s), under a far deadline; then the server again with the real one.
        server, address = start_server("2099-01-01T00:00:00Z")
        setup = open(os.path.join(work, "server", "setup-tokens.txt")).read().split("/setup/")[1].split()[0]
        status, _ = call(address, "POST", "/setup",
                         f"token={setup}&password=pass-word-1&confirm=pass-word-1".encode(),
                         {"Content-Type": "application/x-www-form-urlencoded"})
        teacher = token(address, "teacher")
        bots = [
            ("bot.py", kit("minimal_bot.py")),
            ("bot.zip", zipped([("bot.py", kit("strength_bot.py")), ("teenpatti.py", kit("teenpatti.py"))])),
            ("bot.zip", zipped([("bot.py", kit("random_bot.py")), ("teenpatti.py", kit("teenpatti.py"))])),
        ]
        bearers = []
        for i in range(STUDENTS):
            name = f"student{i:02}"
            status, body = call(address, "POST", "/register",
                                f"name={name}&password=pass-word-1&confirm=pass-word-1".encode(),
                                {"Content-Type": "application/x-www-form-urlencoded"})
            bearers.append((name, token(address, name)))
        server.kill()
        server.wait()
        deadline = time.time() + 10 + WINDOW
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(deadline))
        server, address = start_server(stamp)
        # The workers read the contest (and its deadline) from the database the server wrote.
        for i in range(2):
            log = open(os.path.join(work, f"worker{i}.log"), "w")
            processes.append(subprocess.Popen(
                [os.path.join(bin_dir, "arena-worker"), "--db", DB_URL, "--data",
                 os.path.join(work, f"worker{i}"), "--name", f"w{i}"],
                stderr=log))
        start = deadline - WINDOW
        while time.time() < start:
            time.sleep(0.2)
        print(f"uploads from {time.strftime('%H:%M:%S')} over {WINDOW:.0f} s; deadline {stamp}", flush=True)
        graded = {}
        uploaded = {}
        book = {}
        next_poll = 0.0

        def poll():
            nonlocal book
            status, body = call(address, "GET", "/api/admin/gradebook",
                                headers={"Authorization": teacher})
            assert status == 200, body
            book = json.loads(body)
            for s in book["students"]:
                if s["grade"] is not None and s["name"] not in graded and s["uploads"]:
                    graded[s["name"]] = (time.time(), s)

        for i, (name, bearer) in enumerate(bearers):
            at = start + WINDOW * i / STUDENTS
            while time.time() < at:
                if time.time() >= next_poll:
                    poll()
                    next_poll = time.time() + 5
                time.sleep(0.2)
            file_name, data = bots[i % len(bots)]
            status, body = call(address, "POST", f"/api/bots/{name}-bot/versions",
                                multipart(file_name, data),
                                {"Authorization": bearer,
                                 "Content-Type": "multipart/form-data; boundary=b0"})
            assert status == 201, body
            uploaded[name] = time.time()
        while len(graded) < STUDENTS:
            poll()
            time.sleep(5)
        last = max(t for t, _ in graded.values())
        for name, (t, s) in sorted(graded.items()):
            u = s["uploads"][s["counted"]]
            verdicts = " ".join(f"{v['reference']}={v['state']}({v['blocks']})" for v in u["verdicts"])
            print(f"{name} {u['bot']}: {s['grade']:5.1f}%, out {t - uploaded[name]:6.1f} s after its "
                  f"upload ({t - deadline:+7.1f} s from the deadline; polled every 5 s); {verdicts}")
        print(f"every grade out {last - deadline:.1f} s after the deadline "
              f"({last - start:.1f} s after the first upload); queue now {book['queue']}", flush=True)
        # The copy check's probes (played after the grades, behind any grading block) are
        # done when the grading queue is empty.
        while book["queue"]["queued"] or book["queue"]["running"]:
            time.sleep(5)
            poll()
        flags = sorted({tuple(sorted((c["a"], c["b"]))) + (c["kind"],) for c in book["copies"]})
        print(f"copy check complete {time.time() - deadline:.1f} s after the deadline "
              f"(polled every 5 s): {len(flags)} pairs listed, "
              f"{sum(1 for f in flags if 'reference' in f[0] + f[1])} of them with a reference bot")
    finally:
        for p in processes:
            p.kill()
            p.wait()
        shutil.rmtree(work, ignore_errors=True)
        psql("DROP DATABASE IF EXISTS arena_load")


if __name__ == "__main__":
    main()
