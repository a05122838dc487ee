//! What the engine asks of the operating system beyond std: the cores it may use and when its
//! process started. std answers both well on Linux; on Windows it counts every processor
//! whatever the process's affinity, and has no process start time, so Windows is asked.

use std::time::Instant;

/// The cores this process may use, the default number of search threads: its affinity
/// (`taskset` on Linux, which Wine passes on to Windows programs; `start /affinity` or a job
/// object on Windows), at least 1.
pub fn available_cores() -> usize {
    #[cfg(windows)]
    if let Some(n) = windows::affinity_cores() {
        return n;
    }
    // On Linux this follows the affinity mask (and cgroup quotas).
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// When this process started, given the time `now` early in `main`: a referee that starts the
/// engine and writes its first request at once times the reply from then. On Linux a process
/// reaches `main` within milliseconds; a Windows program is loaded first (under Wine, a tenth
/// of a second and more), so Windows is asked for the process's creation time.
pub fn process_start(now: Instant) -> Instant {
    #[cfg(windows)]
    if let Some(age) = windows::process_age() {
        return now.checked_sub(age).unwrap_or(now);
    }
    now
}

#[cfg(windows)]
mod windows {
    use std::ffi::c_void;
    use std::time::Duration;

    /// Windows' FILETIME: 100-nanosecond ticks in two halves.
    #[repr(C)]
    #[derive(Clone, Copy, Default)]
    struct FileTime {
        low: u32,
        high: u32,
    }

    impl FileTime {
        fn ticks(self) -> u64 {
            (u64::from(self.high) << 32) | u64::from(self.low)
        }
    }

    #[link(name = "kernel32")]
    unsafe extern "system" {
        fn GetCurrentProcess() -> *mut c_void;
        fn GetProcessAffinityMask(
            process: *mut c_void,
            process_mask: *mut usize,
            system_mask: *mut usize,
        ) -> i32;
        fn GetProcessTimes(
            process: *mut c_void,
            creation: *mut FileTime,
            exit: *mut FileTime,
            kernel: *mut FileTime,
            user: *mut FileTime,
        ) -> i32;
        fn GetSystemTimeAsFileTime(now: *mut FileTime);
    }

    pub fn affinity_cores() -> Option<usize> {
        let (mut process, mut system) = (0usize, 0usize);
        // SAFETY: the current process's pseudo handle needs no closing, and both masks are
        // locals that outlive the call.
        let ok = unsafe { GetProcessAffinityMask(GetCurrentProcess(), &mut process, &mut system) };
        (ok != 0 && process != 0).then(|| process.count_ones() as usize)
    }

    pub fn process_age() -> Option<Duration> {
        let mut times = [FileTime::default(); 4];
        let mut now = FileTime::default();
        let [creation, exit, kernel, user] = &mut times;
        // SAFETY: as above; every FILETIME is a local that outlives the calls.
        let ok = unsafe {
            let ok = GetProcessTimes(GetCurrentProcess(), creation, exit, kernel, user);
            GetSystemTimeAsFileTime(&mut now);
            ok
        };
        let age = now.ticks().checked_sub(times[0].ticks())?;
        let age = Duration::from_nanos(age.saturating_mul(100));
        // A system clock set between the two readings makes the age absurd: loading takes
        // seconds at most, and no age is better than a wrong one.
        (ok != 0 && age < Duration::from_secs(10)).then_some(age)
    }
}
