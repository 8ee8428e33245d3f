package selection

import (
	"reflect"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Which buffers hold a file is decided by one rule, lua/claude/tools.lua's
// is_file; Event.File is its answer for the event's buffer.
func TestOnlyFileBuffersCount(t *testing.T) {
	nv := nvimtest.New(t)
	tests := []struct {
		path, buftype string
		file          bool
	}{
		{"/a/b.go", "", true},
		{"/a/b.go", "terminal", false},
		{"/a/b.go", "acwrite", false},
		{"", "", false},
		{"relative.go", "", false},
		{"/x/fugitive:///repo/.git//0/f", "", false},
	}
	for _, tt := range tests {
		var got bool
		nv.Lua(&got, `return require('claude.tools').is_file(...)`, tt.path, tt.buftype)
		if got != tt.file {
			t.Errorf("is_file(%q, %q) = %v, want %v", tt.path, tt.buftype, got, tt.file)
		}
	}

	field, _ := reflect.TypeOf(Event{}).FieldByName("File")
	expr := field.Tag.Get("eval")
	for _, tt := range []struct {
		setup string
		file  bool
	}{
		{"edit " + nv.WriteFile("f.txt", "x\n"), true},
		{"enew | setlocal buftype=nofile | file /tmp/scratch", false},
	} {
		nv.Cmd(tt.setup)
		var got bool
		if err := nv.Eval(expr, &got); err != nil {
			t.Fatalf("eval %s: %v", expr, err)
		}
		if got != tt.file {
			t.Errorf("after :%s the event's file = %v, want %v", tt.setup, got, tt.file)
		}
	}
}
