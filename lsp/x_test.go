package lsp
import ("bytes";"os";"testing")
func TestShowDemo(t *testing.T) {
	t.Setenv("PLANLS_TEST_SERVE", "1")
	var out bytes.Buffer
	err := Demo(t.Context(), DemoOptions{Plan: []byte(basicPlan(t)), Server: []string{os.Args[0]}, Out: &out, Stderr: os.Stderr})
	t.Log(err, "\n"+out.String())
}
