package bench

import (
	"strconv"
	"strings"
	"time"
)

// userHZ is the unit of /proc's clock ticks (USER_HZ: 100 on every Linux architecture Go runs on).
const userHZ = 100

// procStatCPU is utime + stime of a /proc/<pid>/stat line (fields 14 and 15; the command name,
// field 2, is in parentheses and may hold spaces, so fields count from the last ')').
func procStatCPU(stat string) (time.Duration, bool) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(stat[i+1:]) // f[0] is field 3 (state)
	if len(f) < 13 {
		return 0, false
	}
	u, err1 := strconv.ParseUint(f[11], 10, 64)
	s, err2 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(u+s) * time.Second / userHZ, true
}
