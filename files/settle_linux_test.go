package files

import "time"

// settleWait is how long settle waits.
const settleWait = fineMargin + 5*time.Millisecond
