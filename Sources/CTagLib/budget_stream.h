#ifndef QPLAY_BUDGET_STREAM_H
#define QPLAY_BUDGET_STREAM_H
// The stream TagLib reads music through. TagLib's own FileRef(path) opens "rb+" first, so
// every scanned file was opened for writing (and watchers saw IN_CLOSE_WRITE on each);
// this one is read-only and never writes. It also meters what TagLib reads: a file of
// junk or zeros makes TagLib search it to the end a kilobyte at a time (a 2 GB file held
// a thread for 200 s), so past the budget the next read throws and the shim gives up.

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include <taglib/tiostream.h>

#include "qplay_taglib.h"

namespace qplay {

// Thrown out of TagLib by a read past the budget; caught by qp_tag_read.
struct BudgetExceeded {
    bool time;  // false: bytes
};

// Bytes of the file that are never read: a read overlapping them gets zeros there.
struct Range {
    long offset;
    long length;
};

class BudgetStream : public TagLib::IOStream {
public:
    // Takes `file` (opened read-only) and closes it. `size` is the file's length.
    // `unread`: ranges handed out as zeros (embedded pictures), free of the byte budget;
    // sorted by offset and apart.
    BudgetStream(std::string path, std::FILE *file, long size, const qp_tag_budget &budget,
                 std::vector<Range> unread = {})
        : path_(std::move(path)), file_(file), size_(size), budget_(budget), started_(cpu_now()),
          unread_(std::move(unread)) {}

    ~BudgetStream() override {
        if (file_) std::fclose(file_);
    }

    TagLib::FileName name() const override { return path_.c_str(); }

    TagLib::ByteVector readBlock(unsigned long length) override {
        if (length == 0) return TagLib::ByteVector();
        // A header may claim a huge block; never allocate past the end of the file.
        const long position = std::ftell(file_);
        if (position >= size_) return TagLib::ByteVector();
        if (position >= 0 && length > static_cast<unsigned long>(size_ - position)) {
            length = static_cast<unsigned long>(size_ - position);
        }
        // Bytes of `unread_` ranges in the block are not counted: they are never read.
        long long wanted = static_cast<long long>(length);
        for (const Range &range : unread_) {
            const long from = std::max(position, range.offset);
            const long to = std::min(position + static_cast<long>(length), range.offset + range.length);
            if (from < to) wanted -= to - from;
        }
        if (budget_.max_bytes > 0 && bytes_ + wanted > budget_.max_bytes) {
            throw BudgetExceeded{false};
        }
        // Reading the thread's clock is a system call: every 16 reads (TagLib searches
        // 1 KB at a time) or before a large one.
        if (budget_.max_cpu_nanoseconds > 0 && ((++reads_ & 15) == 0 || length >= 65536) &&
            cpu_now() - started_ > budget_.max_cpu_nanoseconds) {
            throw BudgetExceeded{true};
        }
        TagLib::ByteVector buffer(static_cast<unsigned int>(length), 0);
        if (wanted == static_cast<long long>(length)) {
            const size_t got = std::fread(buffer.data(), 1, length, file_);
            buffer.resize(static_cast<unsigned int>(got));
            bytes_ += static_cast<long long>(got);
            return buffer;
        }
        // Read around the unread ranges (sorted, apart), which stay zeros.
        const long end = position + static_cast<long>(length);
        long cursor = position;
        for (const Range &range : unread_) {
            if (range.offset + range.length <= cursor || range.offset >= end) continue;
            if (range.offset > cursor) {
                if (!read_at(cursor, buffer.data() + (cursor - position), range.offset - cursor)) break;
            }
            cursor = std::min(end, range.offset + range.length);
        }
        if (cursor < end) read_at(cursor, buffer.data() + (cursor - position), end - cursor);
        std::fseek(file_, end, SEEK_SET);
        return buffer;
    }

    // Music is never written.
    void writeBlock(const TagLib::ByteVector &) override {}
    void insert(const TagLib::ByteVector &, unsigned long, unsigned long) override {}
    void removeBlock(unsigned long, unsigned long) override {}
    void truncate(long) override {}
    bool readOnly() const override { return true; }

    bool isOpen() const override { return file_ != nullptr; }

    void seek(long offset, Position p) override {
        const int whence = p == Beginning ? SEEK_SET : (p == Current ? SEEK_CUR : SEEK_END);
        std::fseek(file_, offset, whence);
    }

    void clear() override { std::clearerr(file_); }

    long tell() const override { return std::ftell(file_); }

    long length() override { return size_; }

    long long bytesRead() const { return bytes_; }
    long long cpuNanoseconds() const { return cpu_now() - started_; }

private:
    bool read_at(long offset, char *into, long count) {
        if (std::fseek(file_, offset, SEEK_SET) != 0) return false;
        const size_t got = std::fread(into, 1, static_cast<size_t>(count), file_);
        bytes_ += static_cast<long long>(got);
        return got == static_cast<size_t>(count);
    }

    static long long cpu_now() {
        timespec now;
        if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0) return 0;
        return static_cast<long long>(now.tv_sec) * 1000000000LL + now.tv_nsec;
    }

    std::string path_;
    std::FILE *file_;
    long size_;
    qp_tag_budget budget_;
    long long started_;
    long long bytes_ = 0;
    unsigned reads_ = 0;
    std::vector<Range> unread_;
};

}  // namespace qplay

#endif
