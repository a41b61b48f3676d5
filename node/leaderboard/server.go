package leaderboard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	after, err := cursor(r)
	if err != nil {
		render(w, "error", nil, asJSON, err)
		return
	}
	rd, cancel := s.reader(r)
	defer cancel()
	page, err := rd.index(after)
	render(w, "index", page, asJSON, err)
}

// cursor is the request's ?after=<id>: a listing's page starts below that
// id (0, the default, is the newest). Lists page by id rather than by page
// number so a page stays the same while new items arrive at the top.
func cursor(r *http.Request) (uint64, error) {
	raw := r.URL.Query().Get("after")
	if raw == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(raw, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("after %q: %w", raw, errBadRequest)
	}
	return n, nil
}

func (s *server) epoch(w http.ResponseWriter, r *http.Request) {
	rd, cancel := s.reader(r)
	defer cancel()
	page, err := rd.epoch()
	render(w, "epoch", page, strings.HasSuffix(r.URL.Path, ".json"), err)
}

func (s *server) track(w http.ResponseWriter, r *http.Request) {
	name, asJSON := splitJSON(r.PathValue("name"))
	rd, cancel := s.reader(r)
	defer cancel()
	page, err := rd.track(name)
	render(w, "track", page, asJSON, err)
}

func (s *server) taskForm(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseUint(r.URL.Query().Get("id"), 10, 64)
	if err != nil {
		render(w, "error", nil, false, fmt.Errorf("task id %q: %w", r.URL.Query().Get("id"), errBadRequest))
		return
	}
	http.Redirect(w, r, "/task/"+strconv.FormatUint(id, 10), http.StatusSeeOther)
}

func (s *server) task(w http.ResponseWriter, r *http.Request) {
	raw, asJSON := splitJSON(r.PathValue("id"))
	id, err := strconv.ParseUint(raw, 10, 64)
	if err != nil {
		render(w, "error", nil, asJSON, fmt.Errorf("task id %q: %w", raw, errBadRequest))
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
