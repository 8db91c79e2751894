// The runner's own folder for one run, in the temporary directory: the bots' scratch folders and
// the sandbox's copies of bots and builds. It goes when the run ends; one left behind by a
// runner that was killed is removed by the next run.
#pragma once

#include "runner/sys/temp_dir.hpp"
#include "runner/sys/unique_fd.hpp"

#include <filesystem>

namespace gol::runner {

class WorkArea {
public:
    // `reachable`: a sandboxed process running as another user must reach the folders inside
    // (the area is made searchable by others, mode 0711, but not listable, and so must its
    // parents be; what is in it keeps others out itself: Sandbox::stage). Throws
    // std::runtime_error, naming the folder, when the area cannot be made or reached.
    explicit WorkArea(bool reachable = false);

    const std::filesystem::path& path() const { return dir_.path(); }

private:
    TempDir dir_;
    UniqueFd lock_;  // held while this run lives: how the next run tells a live area from a stale one
};

}  // namespace gol::runner
