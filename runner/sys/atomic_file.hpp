// Durable writes: a reader sees the old file or the whole new one, never a torn one.
#pragma once

#include <filesystem>
#include <string_view>

namespace gol::runner {

// Writes to a temporary file beside `path`, fsyncs it, renames it over `path` and fsyncs the
// directory, creating parent directories as needed. Throws std::runtime_error on failure.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

// Puts the folder `staging` at `target` in one rename, so that a reader sees the old folder or
// the whole new one: exchanged with `target` when there is one (the old folder is then at
// `staging`, for the caller to remove). Throws std::runtime_error.
void swap_in_folder(const std::filesystem::path& staging, const std::filesystem::path& target);

}  // namespace gol::runner
