package mcp

// DiagnosticsChangedParams builds the params of a diagnostics_changed
// notification for one file, in the same shape getDiagnostics answers
// with, so a client can treat both alike. Pass it to Server.Notify.
func DiagnosticsChangedParams(fd FileDiagnostics) any {
	return toWireDiagnostics(fd)
}
