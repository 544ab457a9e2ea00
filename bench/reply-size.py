#!/usr/bin/env python3
"""A minimal scripted Messages API server whose replies can be padded.

For bench/session.sh --url: does the size of the model's replies change what
a `claude -p` session costs? The script is the stand-in's (a Bash tool call
writing notes.txt, then a final text); --pad BYTES adds that many bytes of
text to every reply: to the final text, and as a text block before the tool
call. Prints its base URL on the first line of stdout.

Usage: bench/reply-size.py --pad BYTES
"""
import argparse
import http.server
import json
import socketserver

BASH = "printf 'ready\\n' > notes.txt"


def events(msg_id, blocks, stop):
    usage = {"input_tokens": 12, "output_tokens": 8, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
    out = [("message_start", {"type": "message_start", "message": {
        "id": msg_id, "type": "message", "role": "assistant", "model": "failopen-bench", "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": usage}})]
    for i, block in enumerate(blocks):
        if block["type"] == "text":
            start, delta = {"type": "text", "text": ""}, {"type": "text_delta", "text": block["text"]}
        else:
            start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        out += [("content_block_start", {"type": "content_block_start", "index": i, "content_block": start}),
                ("content_block_delta", {"type": "content_block_delta", "index": i, "delta": delta}),
                ("content_block_stop", {"type": "content_block_stop", "index": i})]
    out += [("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                               "usage": {"output_tokens": 8}}),
            ("message_stop", {"type": "message_stop"})]
    return "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in out).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    counter = 0
    pad = ""

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
        Handler.counter += 1
        n = Handler.counter
        uses = [b for m in body.get("messages", []) if isinstance(m.get("content"), list)
                for b in m["content"] if b.get("type") == "tool_use"]
        pad = [{"type": "text", "text": Handler.pad}] if Handler.pad else []
        if body.get("tools") and not uses:
            blocks = pad + [{"type": "tool_use", "id": f"toolu_b{n:08}", "name": "Bash",
                             "input": {"command": BASH, "description": "Create notes.txt containing ready"}}]
            stop = "tool_use"
        else:
            blocks = [{"type": "text", "text": "Done." + Handler.pad}]
            stop = "end_turn"
        data = events(f"msg_b{n:08}", blocks, stop)
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pad", type=int, default=0, help="bytes of text added to every reply")
    args = parser.parse_args()
    Handler.pad = "x" * args.pad
    server = Server(("127.0.0.1", 0), Handler)
    print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
