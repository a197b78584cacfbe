import CProcessSettings

/// How the kernel backs the tool's memory. Where transparent huge pages are on for every process
/// (`/sys/kernel/mm/transparent_hugepage/enabled` is `always`), a fault anywhere in an aligned
/// 2 MB of anonymous memory makes all of it resident: the encoders' buffers, the frame pools and
/// each thread's malloc arena then hold pages they never touch (eight 720p cameras recording kept
/// 245-256 MB resident, 169-171 MB with ordinary pages, at the same CPU). The tool asks for
/// ordinary pages for itself and the processes it starts.
enum ProcessMemory {
    /// Leaves transparent huge pages off for this process; a kernel that cannot is left as it is.
    static func prepare() {
        _ = cps_use_ordinary_pages()
    }
}
