import CTagLib

/// glibc keeps freed heap memory for reuse. A search table's loading scratch
/// or a large result (83,000 tracks: a 21 MB array) would otherwise stay resident after
/// it is freed, for the life of the daemon:
/// - `malloc_trim(0)` hands free heap pages back to the kernel (after a table load);
/// - a fixed mmap threshold makes every allocation of 4 MB or more (results of 16,000+
///   tracks, the table's arrays) a mapping of its own that `free` unmaps at once. Not
///   lower: mapping and zeroing a 1.3 MB result (5,000 tracks) costs ~1 ms. glibc's
///   default threshold starts at 128 KB but rises to the size of the largest block
///   freed, up to 32 MB — after one large result the next ones come from the heap and
///   stay. This setting is process-wide; it is made once, when an index opens.
public enum MemoryTrim {
    public static func releaseFreeMemory() {
        _ = qp_malloc_trim()
    }

    static let configure: Void = {
        _ = qp_malloc_set_mmap_threshold(4 << 20)
    }()
}
