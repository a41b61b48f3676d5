package leaderboard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/scoringsubnet/validatord/internal/appquery"
)

// Handler serves the pages of the app behind q (its ABCI Query).
func Handler(q appquery.Querier) http.Handler { return HandlerWith(q, Options{}) }

// HandlerWith is Handler with what the pages may know beyond the Query.
func HandlerWith(q appquery.Querier, o Options) http.Handler {
	mux := http.NewServeMux()
	s := &server{q: q, opts: o}
	mux.HandleFunc("GET /{$}", s.index)
	mux.HandleFunc("GET /index.json", s.index)
	mux.HandleFunc("GET /epoch", s.epoch)
	mux.HandleFunc("GET /epoch.json", s.epoch)
	mux.HandleFunc("GET /epoch/{n}", s.epochN)
	mux.HandleFunc("GET /epochs", s.epochs)
	mux.HandleFunc("GET /epochs.json", s.epochs)
	mux.HandleFunc("GET /miner", s.minerForm)
	mux.HandleFunc("GET /miner/{uid}", s.miner)
	mux.HandleFunc("GET /submission/{id}", s.submission)
	mux.HandleFunc("GET /track/{name}", s.track)
	mux.HandleFunc("GET /task", s.taskForm)
	mux.HandleFunc("GET /task/{id}", s.task)
	return mux
}

type server struct {
	q    appquery.Querier
	opts Options
}

// pageTimeout bounds the queries of one page.
const pageTimeout = 10 * time.Second

func (s *server) reader(r *http.Request) (reader, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(r.Context(), pageTimeout)
	return reader{ctx: ctx, q: s.q, opts: s.opts}, cancel
}

// splitJSON strips a ".json" suffix: the page's JSON rather than its HTML.
func splitJSON(s string) (string, bool) {
	if base, ok := strings.CutSuffix(s, ".json"); ok {
		return base, true
	}
	return s, false
}

func (s *server) index(w http.ResponseWriter, r *http.Request) {
	asJSON := r.URL.Path == "/index.json"
	after, ok := cursor(w, r, asJSON, "a task id")
	if !ok {
		return
	}
	rd, cancel := s.reader(r)
	defer cancel()
	page, err := rd.index(after)
	render(w, "index", page, asJSON, err)
}

// cursor is the request's ?after=<n>: a listing's page starts below that
// id (0, the default, is the newest), or on a track's board after that
// rank. Lists page by id rather than by page number so a page stays the
// same while new items arrive at the top. A bad one (not a whole number:
// what says what it should be) is answered here with a 400 (ok false).
func cursor(w http.ResponseWriter, r *http.Request, asJSON bool, what string) (after uint64, ok bool) {
	raw := r.URL.Query().Get("after")
	if raw == "" {
		return 0, true
	}
	n, err := strconv.ParseUint(raw, 10, 64)
	if err != nil {
		render(w, "error", nil, asJSON, fmt.Errorf("after %q: %w: ?after= takes %s, a whole number (0 or more)", raw, errBadRequest, what))
		return 0, false
	}
	return n, true
}

// pathNumber reads the path's number {name} (with or without .json); a bad
// one is answered here (ok false).
func pathNumber(w http.ResponseWriter, r *http.Request, name, what string, bits int) (n uint64, asJSON, ok bool) {
	raw, asJSON := splitJSON(r.PathValue(name))
	n, err := strconv.ParseUint(raw, 10, bits)
	if err != nil {
		render(w, "error", nil, asJSON, fmt.Errorf("%s %q: %w", what, raw, errBadRequest))
		return 0, asJSON, false
	}
	return n, asJSON, true
}

func (s *server) epoch(w http.ResponseWriter, r *http.Request) {
	rd, cancel := s.reader(r)
	defer cancel()
	page, err := rd.epoch("epoch/latest")
	render(w, "epoch", page, strings.HasSuffix(r.URL.Path, ".json"), err)
}

func (s *server) epochN(w http.ResponseWriter, r *http.Request) {
	n, asJSON, ok := pathNumber(w, r, "n", "epoch", 64)
	if !ok {
		return
	}
	rd, cancel := s.reader(r)
	defer cancel()
	page, err := rd.epoch("epoch/" + strconv.FormatUint(n, 10))
	render(w, "epoch", page, asJSON, err)
}

func (s *server) epochs(w http.ResponseWriter, r *http.Request) {
	rd, cancel := s.reader(r)
	defer cancel()
	page, err := rd.epochs()
	render(w, "epochs", page, strings.HasSuffix(r.URL.Path, ".json"), err)
}

func (s *server) minerForm(w http.ResponseWriter, r *http.Request) {
	formRedirect(w, r, "uid", 32, "/miner/")
}

// formRedirect sends a form's ?<param>=<number> to prefix<number>.
func formRedirect(w http.ResponseWriter, r *http.Request, param string, bits int, prefix string) {
	raw := r.URL.Query().Get(param)
	n, err := strconv.ParseUint(raw, 10, bits)
	if err != nil {
		render(w, "error", nil, false, fmt.Errorf("%s %q: %w", param, raw, errBadRequest))
		return
	}
	http.Redirect(w, r, prefix+strconv.FormatUint(n, 10), http.StatusSeeOther)
}

func (s *server) miner(w http.ResponseWriter, r *http.Request) {
	uid, asJSON, ok := pathNumber(w, r, "uid", "uid", 32)
	if !ok {
		return
	}
	after, ok := cursor(w, r, asJSON, "a submission id")
	if !ok {
		return
	}
	rd, cancel := s.reader(r)
	defer cancel()
	page, err := rd.miner(uint32(uid), after)
	render(w, "miner", page, asJSON, err)
}

// submission serves the "submission/<id>" answer (its receipt, votes and
// commit) as the node's Query gives it: the miner page's receipt link.
// Only the JSON exists; the path without .json is not found.
func (s *server) submission(w http.ResponseWriter, r *http.Request) {
	id, asJSON, ok := pathNumber(w, r, "id", "submission", 64)
	if !ok {
		return
	}
	if !asJSON {
		render(w, "error", nil, false, fmt.Errorf("submission %d: %w (its receipt is /submission/%d.json)", id, appquery.ErrNotFound, id))
		return
	}
	rd, cancel := s.reader(r)
	defer cancel()
	bz, _, err := appquery.Raw(rd.ctx, rd.q, "submission/"+strconv.FormatUint(id, 10))
	render(w, "", json.RawMessage(bz), true, err)
}

func (s *server) track(w http.ResponseWriter, r *http.Request) {
	name, asJSON := splitJSON(r.PathValue("name"))
	after, ok := cursor(w, r, asJSON, "the rank the page starts after")
	if !ok {
		return
	}
	rd, cancel := s.reader(r)
	defer cancel()
	// a rank past the uid space is past every board's end
	page, err := rd.track(name, int(min(after, math.MaxUint32)), orDefault(s.opts.trackRows, trackRows))
	render(w, "track", page, asJSON, err)
}

func (s *server) taskForm(w http.ResponseWriter, r *http.Request) {
	formRedirect(w, r, "id", 64, "/task/")
}

func (s *server) task(w http.ResponseWriter, r *http.Request) {
	id, asJSON, ok := pathNumber(w, r, "id", "task id", 64)
	if !ok {
		return
	}
	rd, cancel := s.reader(r)
	defer cancel()
	page, err := rd.task(id)
	render(w, "task", page, asJSON, err)
}

var errBadRequest = errors.New("bad request")

// render writes page as JSON or through its template, or err with its
// status (404 for what is not stored, 400 for a bad path, 502 when the app
// did not answer).
func render(w http.ResponseWriter, name string, page any, asJSON bool, err error) {
	w.Header().Set("Cache-Control", "no-store")
	if err != nil {
		status := http.StatusBadGateway
		switch {
		case errors.Is(err, appquery.ErrNotFound):
			status = http.StatusNotFound
		case errors.Is(err, errBadRequest):
			status = http.StatusBadRequest
		}
		if asJSON {
			writeJSON(w, status, map[string]string{"error": err.Error()})
			return
		}
		name, page = "error", errorPage{Status: status, Text: http.StatusText(status), Message: err.Error()}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(status)
		_ = pages.ExecuteTemplate(w, name, page)
		return
	}
	if asJSON {
		writeJSON(w, http.StatusOK, page)
		return
	}
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, page); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(buf.Bytes())
}

type errorPage struct {
	Status  int
	Text    string
	Message string
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}
