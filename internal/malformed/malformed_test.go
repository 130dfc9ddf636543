package malformed

import (
	"errors"
	"fmt"
	"testing"
)

func TestNew(t *testing.T) {
	err := New("merkle: a path of 3 nodes")
	if err.Error() != "merkle: a path of 3 nodes" || !errors.Is(err, Err) || !errors.Is(fmt.Errorf("wrapped: %w", err), Err) {
		t.Fatalf("%v: text or match wrong", err)
	}
	if errors.Is(errors.New("merkle: a path of 3 nodes"), Err) {
		t.Fatal("another error of the same text matches Err")
	}
}
