// Command servedir serves a directory over HTTP on 127.0.0.1 until it is
// killed, and prints its URL on the first line of stdout. scripts/release-check
// serves what scripts/dist built with it, as a release mirror for
// scripts/install-binary (CLAUDE_NVIM_RELEASE_URL). Go, not python3 -m
// http.server: the checks need nothing but the tools the tests already need.
package main

import (
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"
)

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: servedir DIR")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("http://%s\n", ln.Addr())
	srv := &http.Server{Handler: http.FileServer(http.Dir(os.Args[1])), ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(ln))
}
