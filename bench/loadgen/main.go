// loadgen: the HTTP load generator of `npm run bench:proxy` (bench/proxy.bench.ts).
//
// Node's HTTP client costs more CPU per request than the proxies it would measure, so the
// proxy bench drives its load from this small Go program (standard library only). It runs
// -c workers, each sending GET -url one request at a time for -d (after -warmup, which is
// not counted), directly or through -proxy (http://user:pass@127.0.0.1:port: the
// user info becomes Proxy-Authorization, also on CONNECT). An https -url through a proxy
// goes through a CONNECT tunnel; with -keepalive=false every request opens a new
// connection (a new CONNECT and a full TLS handshake: no session resumption).
//
// It prints one JSON line:
//
//	{"requests":N,"errors":N,"rps":F,"p50_ms":F,"p99_ms":F,...}
//
// requests counts the 2xx answers whose body was read whole (and of -expect bytes when
// given) and that completed inside the measured window; errors counts the others; late
// counts the requests that completed after the window (not measured).
package main

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

type result struct {
	Requests   int64   `json:"requests"`
	Errors     int64   `json:"errors"`
	Late       int64   `json:"late"`
	RPS        float64 `json:"rps"`
	P50        float64 `json:"p50_ms"`
	P90        float64 `json:"p90_ms"`
	P99        float64 `json:"p99_ms"`
	Max        float64 `json:"max_ms"`
	Seconds    float64 `json:"seconds"`
	Bytes      int64   `json:"bytes"`
	CPUSeconds float64 `json:"cpu_s"`
	GoMaxProcs int     `json:"gomaxprocs"`
	FirstError string  `json:"first_error,omitempty"`
}

type worker struct {
	lat        []uint32 // microseconds
	requests   int64
	errors     int64
	late       int64
	bytes      int64
	firstError string
}

func main() {
	target := flag.String("url", "", "the URL to GET (http or https)")
	proxy := flag.String("proxy", "", "proxy URL, e.g. http://key:@127.0.0.1:8010 (empty: direct)")
	conc := flag.Int("c", 1, "concurrent workers (connections)")
	dur := flag.Duration("d", 3*time.Second, "measured duration")
	warmup := flag.Duration("warmup", 0, "unmeasured run before the measured window")
	keepalive := flag.Bool("keepalive", true, "reuse connections (false: a new connection, CONNECT and TLS handshake per request)")
	cacert := flag.String("cacert", "", "comma-separated PEM files trusted for TLS (the origin's self-signed certificate, a proxy's CA)")
	insecure := flag.Bool("insecure", false, "skip TLS verification")
	expect := flag.Int64("expect", -1, "expected body size in bytes (-1: any)")
	timeout := flag.Duration("timeout", 30*time.Second, "per-request timeout")
	flag.Parse()
	if *target == "" || *conc < 1 {
		fmt.Fprintln(os.Stderr, "usage: loadgen -url URL [-proxy URL] [-c N] [-d 3s] [-warmup 0s] [-keepalive=true] [-cacert a.pem,b.pem] [-insecure] [-expect BYTES]")
		os.Exit(2)
	}

	tlsConfig := &tls.Config{InsecureSkipVerify: *insecure}
	if *cacert != "" {
		pool := x509.NewCertPool()
		for _, f := range strings.Split(*cacert, ",") {
			pem, err := os.ReadFile(strings.TrimSpace(f))
			if err != nil || !pool.AppendCertsFromPEM(pem) {
				fmt.Fprintf(os.Stderr, "loadgen: cannot use %s as a CA: %v\n", f, err)
				os.Exit(2)
			}
		}
		tlsConfig.RootCAs = pool
	}
	transport := &http.Transport{
		TLSClientConfig:     tlsConfig,
		DisableKeepAlives:   !*keepalive,
		DisableCompression:  true,
		MaxConnsPerHost:     *conc, // no more connections than workers (the client's own dials race otherwise)
		MaxIdleConns:        *conc * 2,
		MaxIdleConnsPerHost: *conc * 2,
		IdleConnTimeout:     90 * time.Second,
		DialContext:         (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
		TLSHandshakeTimeout: 10 * time.Second,
		ForceAttemptHTTP2:   false,
	}
	if *proxy != "" {
		p, err := url.Parse(*proxy)
		if err != nil {
			fmt.Fprintf(os.Stderr, "loadgen: bad -proxy: %v\n", err)
			os.Exit(2)
		}
		transport.Proxy = http.ProxyURL(p)
	}
	client := &http.Client{Transport: transport, Timeout: *timeout}

	start := time.Now()
	measureFrom := start.Add(*warmup)
	end := measureFrom.Add(*dur)
	workers := make([]*worker, *conc)
	var wg sync.WaitGroup
	for i := range workers {
		w := &worker{lat: make([]uint32, 0, 4096)}
		workers[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 32*1024)
			for {
				t0 := time.Now()
				if !t0.Before(end) {
					return
				}
				n, err := get(client, *target, buf, *expect)
				t1 := time.Now()
				if t1.Before(measureFrom) {
					continue
				}
				if t1.After(end) {
					w.late++
					continue
				}
				if err != nil {
					w.errors++
					if w.firstError == "" {
						w.firstError = err.Error()
					}
					continue
				}
				w.requests++
				w.bytes += n
				w.lat = append(w.lat, uint32(t1.Sub(t0).Microseconds()))
			}
		}()
	}
	wg.Wait()
	transport.CloseIdleConnections()

	r := result{Seconds: dur.Seconds(), GoMaxProcs: runtime.GOMAXPROCS(0)}
	var all []uint32
	for _, w := range workers {
		r.Requests += w.requests
		r.Errors += w.errors
		r.Late += w.late
		r.Bytes += w.bytes
		if r.FirstError == "" {
			r.FirstError = w.firstError
		}
		all = append(all, w.lat...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	pct := func(p float64) float64 {
		if len(all) == 0 {
			return 0
		}
		i := int(p / 100 * float64(len(all)))
		if i >= len(all) {
			i = len(all) - 1
		}
		return float64(all[i]) / 1000
	}
	r.RPS = float64(r.Requests) / r.Seconds
	r.P50, r.P90, r.P99 = pct(50), pct(90), pct(99)
	if len(all) > 0 {
		r.Max = float64(all[len(all)-1]) / 1000
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		r.CPUSeconds = float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
	}
	out, _ := json.Marshal(r)
	fmt.Println(string(out))
}

// get sends one GET and reads the whole body; it returns the body size.
func get(client *http.Client, target string, buf []byte, expect int64) (int64, error) {
	req, err := http.NewRequest(http.MethodGet, target, nil)
	if err != nil {
		return 0, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	n, err := io.CopyBuffer(io.Discard, resp.Body, buf)
	resp.Body.Close()
	if err != nil {
		return n, err
	}
	if resp.StatusCode/100 != 2 {
		reason := resp.Header.Get("X-Proxy-Error")
		if reason == "" {
			reason = resp.Header.Get("X-Squid-Error")
		}
		return n, fmt.Errorf("status %d %s", resp.StatusCode, reason)
	}
	if expect >= 0 && n != expect {
		return n, errors.New(fmt.Sprintf("body of %d bytes, expected %d", n, expect))
	}
	return n, nil
}
