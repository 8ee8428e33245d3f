package lockfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

func testInfo(folders ...string) Info {
	return Info{PID: 4242, WorkspaceFolders: folders, AuthToken: "tok"}
}

func mustCreate(t *testing.T, dir string, port int, info Info) *Lock {
	t.Helper()
	l, err := Create(dir, port, info)
	if err != nil {
		t.Fatalf("Create(%s, %d, %+v): %v", dir, port, info, err)
	}
	t.Cleanup(func() { l.Remove() })
	return l
}

// wantOnly fails unless dir holds exactly the named entries: no temporary
// files left behind.
func wantOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	slices.Sort(names)
	if !slices.Equal(got, names) {
		t.Errorf("entries of %s = %q, want %q", dir, got, names)
	}
}

func TestCreateWritesExactJSON(t *testing.T) {
	tests := []struct {
		name string
		info Info
		want string
	}{
		{
			name: "writes every key in order with the given folders",
			info: testInfo("/home/u/proj", "/srv/other"),
			want: `{"pid":4242,"workspaceFolders":["/home/u/proj","/srv/other"],"ideName":"Neovim","transport":"ws","runningInWindows":false,"authToken":"tok"}`,
		},
		{
			name: "writes nil folders as an empty array, never null",
			info: testInfo(),
			want: `{"pid":4242,"workspaceFolders":[],"ideName":"Neovim","transport":"ws","runningInWindows":false,"authToken":"tok"}`,
		},
		{
			name: "writes & < > in paths unescaped",
			info: testInfo("/a&b/<c>"),
			want: `{"pid":4242,"workspaceFolders":["/a&b/<c>"],"ideName":"Neovim","transport":"ws","runningInWindows":false,"authToken":"tok"}`,
		},
		{
			name: "keeps explicit ideName and transport ws",
			info: Info{PID: 7, IDEName: "Neovim", Transport: "ws", AuthToken: "x"},
			want: `{"pid":7,"workspaceFolders":[],"ideName":"Neovim","transport":"ws","runningInWindows":false,"authToken":"x"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			l := mustCreate(t, dir, 51234, tt.info)

			wantPath := filepath.Join(dir, "51234.lock")
			if l.Path() != wantPath {
				t.Errorf("Path() for port 51234 = %s, want %s", l.Path(), wantPath)
			}
			data, err := os.ReadFile(wantPath)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(data); got != tt.want {
				t.Errorf("lock file for %+v:\n got %s\nwant %s", tt.info, got, tt.want)
			}
			got, err := Read(wantPath)
			if err != nil {
				t.Fatal(err)
			}
			if want := l.Info(); !infoEqual(got, want) {
				t.Errorf("Read(%s) = %+v, want Info() %+v", wantPath, got, want)
			}
			wantOnly(t, dir, "51234.lock")
		})
	}
}

func infoEqual(a, b Info) bool {
	return slices.Equal(a.WorkspaceFolders, b.WorkspaceFolders) &&
		a.PID == b.PID && a.IDEName == b.IDEName && a.Transport == b.Transport &&
		a.RunningInWindows == b.RunningInWindows && a.AuthToken == b.AuthToken
}

func TestCreateRejects(t *testing.T) {
	tests := []struct {
		name string
		port int
		info Info
	}{
		{"rejects port 0", 0, testInfo()},
		{"rejects port 65536", 65536, testInfo()},
		{"rejects pid 0", 8080, Info{AuthToken: "tok"}},
		{"rejects an empty auth token", 8080, Info{PID: 1}},
		{"rejects a transport other than ws", 8080, Info{PID: 1, AuthToken: "tok", Transport: "sse"}},
		{"rejects a relative workspace folder", 8080, testInfo("/abs", "rel/dir")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if l, err := Create(dir, tt.port, tt.info); err == nil {
				t.Errorf("Create(port %d, %+v) = %s, want an error", tt.port, tt.info, l.Path())
			}
			wantOnly(t, dir)
		})
	}
}

func TestCreateModes(t *testing.T) {
	for _, u := range umasks {
		t.Run("makes the directory 0700 and the file 0600, also after an update, "+u.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "claude", "ide")
			withUmask(t, u.mask) // after TempDir, which the umask would lock us out of
			l := mustCreate(t, dir, 8080, testInfo("/a"))
			wantMode(t, dir, 0o700)
			wantMode(t, l.Path(), 0o600)

			if err := l.SetWorkspaceFolders([]string{"/b"}); err != nil {
				t.Fatal(err)
			}
			wantMode(t, l.Path(), 0o600)
			wantOnly(t, dir, "8080.lock")
		})
	}
}

func TestCreateReplacesAnOldLockOnTheSamePort(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "8080.lock")
	if err := os.WriteFile(old, []byte(`{"pid":1,"authToken":"old"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	l := mustCreate(t, dir, 8080, testInfo())
	got, err := Read(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	if got.AuthToken != "tok" {
		t.Errorf("authToken after Create over an old lock = %q, want %q", got.AuthToken, "tok")
	}
	wantMode(t, l.Path(), 0o600)
}

func TestCreateLeavesNoTempFileWhenRenameFails(t *testing.T) {
	dir := t.TempDir()
	// A non-empty directory cannot be renamed over, even by root.
	blocker := filepath.Join(dir, "8080.lock")
	if err := os.MkdirAll(filepath.Join(blocker, "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(dir, 8080, testInfo()); err == nil {
		t.Fatalf("Create over the directory %s succeeded, want an error", blocker)
	}
	wantOnly(t, dir, "8080.lock")
}

func TestCreateCopiesFolders(t *testing.T) {
	folders := []string{"/a"}
	l := mustCreate(t, t.TempDir(), 8080, testInfo(folders...))
	folders[0] = "/changed"
	got := l.Info().WorkspaceFolders
	got[0] = "/changed too"
	if want := []string{"/a"}; !slices.Equal(l.Info().WorkspaceFolders, want) {
		t.Errorf("Info().WorkspaceFolders after changing the caller's slices = %q, want %q", l.Info().WorkspaceFolders, want)
	}
}

func TestSetWorkspaceFolders(t *testing.T) {
	tests := []struct {
		name        string
		from, to    []string
		wantRewrite bool
	}{
		{"rewrites the file when the folders change", []string{"/a"}, []string{"/b"}, true},
		{"rewrites the file when a folder is added", []string{"/a"}, []string{"/a", "/b"}, true},
		{"rewrites the file when the folders are cleared", []string{"/a"}, nil, true},
		{"leaves the file alone when the folders are the same", []string{"/a", "/b"}, []string{"/a", "/b"}, false},
		{"treats nil and empty as the same", nil, []string{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			l := mustCreate(t, dir, 8080, testInfo(tt.from...))
			before, err := os.Stat(l.Path())
			if err != nil {
				t.Fatal(err)
			}
			if err := l.SetWorkspaceFolders(tt.to); err != nil {
				t.Fatalf("SetWorkspaceFolders(%q) from %q: %v", tt.to, tt.from, err)
			}
			after, err := os.Stat(l.Path())
			if err != nil {
				t.Fatal(err)
			}
			// Every rewrite renames a new inode into place.
			if rewritten := !os.SameFile(before, after); rewritten != tt.wantRewrite {
				t.Errorf("SetWorkspaceFolders(%q) from %q rewrote the file: %v, want %v", tt.to, tt.from, rewritten, tt.wantRewrite)
			}
			got, err := Read(l.Path())
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.WorkspaceFolders, tt.to) || got.WorkspaceFolders == nil {
				t.Errorf("workspaceFolders on disk after SetWorkspaceFolders(%q) = %#v, want %q as a non-nil slice", tt.to, got.WorkspaceFolders, tt.to)
			}
			if !slices.Equal(l.Info().WorkspaceFolders, tt.to) {
				t.Errorf("Info().WorkspaceFolders after SetWorkspaceFolders(%q) = %q", tt.to, l.Info().WorkspaceFolders)
			}
			wantMode(t, l.Path(), 0o600)
			wantOnly(t, dir, "8080.lock")
		})
	}
}

func TestSetWorkspaceFoldersRejects(t *testing.T) {
	tests := []struct {
		name    string
		remove  bool
		folders []string
		wantErr error
	}{
		{name: "rejects a relative folder and keeps the old ones", folders: []string{"rel"}},
		{name: "refuses after Remove and does not recreate the file", remove: true, folders: []string{"/b"}, wantErr: ErrRemoved},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			l := mustCreate(t, dir, 8080, testInfo("/a"))
			if tt.remove {
				if err := l.Remove(); err != nil {
					t.Fatal(err)
				}
			}
			err := l.SetWorkspaceFolders(tt.folders)
			if err == nil || (tt.wantErr != nil && !errors.Is(err, tt.wantErr)) {
				t.Errorf("SetWorkspaceFolders(%q) = %v, want error %v", tt.folders, err, tt.wantErr)
			}
			if want := []string{"/a"}; !slices.Equal(l.Info().WorkspaceFolders, want) {
				t.Errorf("Info().WorkspaceFolders after the refused SetWorkspaceFolders(%q) = %q, want %q", tt.folders, l.Info().WorkspaceFolders, want)
			}
			if tt.remove {
				wantOnly(t, dir)
			}
		})
	}
}

func TestRemove(t *testing.T) {
	tests := []struct {
		name     string
		before   func(t *testing.T, l *Lock)
		wantFile bool
	}{
		{
			name:   "deletes the file",
			before: func(*testing.T, *Lock) {},
		},
		{
			name: "succeeds twice in a row",
			before: func(t *testing.T, l *Lock) {
				if err := l.Remove(); err != nil {
					t.Fatal(err)
				}
			},
		},
		{
			name: "succeeds when the file is already gone",
			before: func(t *testing.T, l *Lock) {
				if err := os.Remove(l.Path()); err != nil {
					t.Fatal(err)
				}
			},
		},
		{
			name: "leaves a lock another server wrote on the same port",
			before: func(t *testing.T, l *Lock) {
				other := Info{PID: os.Getpid(), AuthToken: "someone else"}
				if err := writeAtomic(l.Path(), other); err != nil {
					t.Fatal(err)
				}
			},
			wantFile: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := mustCreate(t, t.TempDir(), 8080, testInfo())
			tt.before(t, l)
			if err := l.Remove(); err != nil {
				t.Errorf("Remove(): %v", err)
			}
			_, err := os.Stat(l.Path())
			if exists := err == nil; exists != tt.wantFile {
				t.Errorf("%s exists after Remove: %v, want %v", l.Path(), exists, tt.wantFile)
			}
		})
	}
}

func TestConcurrentSetWorkspaceFolders(t *testing.T) {
	dir := t.TempDir()
	l := mustCreate(t, dir, 8080, testInfo("/start"))

	const workers, rounds = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				if err := l.SetWorkspaceFolders([]string{fmt.Sprintf("/w%d/r%d", w, r)}); err != nil {
					errs <- err
				}
				_ = l.Info()
				_ = l.Path()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("SetWorkspaceFolders from %d goroutines: %v", workers, err)
	}

	got, err := Read(l.Path())
	if err != nil {
		t.Fatalf("lock file after concurrent updates: %v", err)
	}
	if want := l.Info(); !infoEqual(got, want) {
		t.Errorf("lock file after concurrent updates = %+v, want Info() %+v", got, want)
	}
	wantMode(t, l.Path(), 0o600)
	wantOnly(t, dir, "8080.lock")
}
