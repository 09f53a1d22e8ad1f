"""The example reverse proxy works (issue 14): Debian's nginx, run with deploy/nginx.conf (only its ports
changed), in front of two server processes; a table is created, its seats taken and a whole evening played
through it, over HTTP and websockets, with the requests shared between both processes. The processes are told
nginx's address (--public-url): a browser's Origin there is let in, and the invite link names it."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

from multi_helpers import Cluster, close_all, missing, play_out
from server_helpers import HTTP, Server, free_port, open_table

EXAMPLE = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
NGINX = Path("/usr/sbin/nginx")


class Nginx(Server):
    """nginx as a real process on a free port, in front of ``upstreams``; the clients of ``Server`` speak to
    it as to a server."""

    def __init__(self, root: Path, upstreams: list[Server], port: int) -> None:
        if not NGINX.exists():
            missing(f"no nginx at {NGINX}: apt-get install -y nginx (the README's test command does)")
        super().__init__(root)
        self.port = port  # chosen before the processes, which are told it (--public-url)
        site = EXAMPLE.read_text()
        line = re.compile(r"^(\s*server )127\.0\.0\.1:\d+( .*)?;$", re.M)
        template = line.search(site)
        assert template, "the example lists the processes as 'server 127.0.0.1:PORT ...;' lines"
        ours = "\n".join(f"{template.group(1)}127.0.0.1:{u.port}{template.group(2) or ''};" for u in upstreams)
        site = line.sub("", line.sub("@UPSTREAMS@", site, count=1)).replace("@UPSTREAMS@", ours)
        site = site.replace("listen 80;", f"listen 127.0.0.1:{self.port};").replace("listen [::]:80;", "")
        (root / "rummoli.conf").write_text(site)
        (root / "nginx.conf").write_text(f"""
daemon off;
user root root;
worker_processes 1;
pid {root}/nginx.pid;
error_log {root}/error.log warn;
events {{ worker_connections 512; }}
http {{
    log_format upstream '$request $status $upstream_addr';
    access_log {root}/access.log upstream;
    client_body_temp_path {root}/body;
    proxy_temp_path {root}/proxy;
    fastcgi_temp_path {root}/fastcgi;
    uwsgi_temp_path {root}/uwsgi;
    scgi_temp_path {root}/scgi;
    include {root}/rummoli.conf;
}}
""")

    def start(self) -> Server:
        return self.launch([str(NGINX), "-c", str(self.data / "nginx.conf"), "-p", str(self.data),
                            "-e", str(self.data / "error.log")], seconds=15)

def test_two_processes_behind_nginx(tmp_path: Path, make_cluster: Callable[..., Cluster]) -> None:
    port = free_port()
    cluster = make_cluster(2, args=("--public-url", f"http://127.0.0.1:{port}",
                                    "--trusted-proxy", "127.0.0.1"))  # the clients' addresses, from nginx
    (tmp_path / "nginx").mkdir()
    front = Nginx(tmp_path / "nginx", cluster.nodes, port).start()
    try:
        party = open_table(front, "rummoli", 4, [], None, hands=1)
        summary = front.get(f"/api/tables/{party.table_id}").json()
        assert summary["invite"].startswith(front.url + "/")  # the public address: the proxy's
        rebound = HTTP.get(front.url + "/api/tables", headers={"Host": "evil.example"}, timeout=10)
        assert rebound.status_code == 400  # a name that is not the site's, though nginx passes it on
        browser = front.client(party.table_id, origin=front.url)  # a page served by nginx may connect
        assert browser.welcome["type"] == "welcome"
        play_out(party, [browser], random.Random(80))
        history = party.histories()
        for seat, client in party.seats.items():
            assert client.events[-1] == history[seat][-1]
        used = set(re.findall(r"127\.0\.0\.1:(\d+)", (tmp_path / "nginx" / "access.log").read_text()))
        assert used == {str(node.port) for node in cluster.nodes}, "nginx should share the requests"
        close_all([*party.seats.values(), party.watcher, browser])
    finally:
        front.stop()

