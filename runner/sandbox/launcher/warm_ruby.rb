# A warm ruby for one bot's game (issue 16), as warm_python.py is for python3: started once by the
# bot's launcher (launcher.c), it loads what bots commonly use, then for each move forks a process
# that runs the bot's file as `ruby bot.rb BOARD` would. Usage, by the launcher only:
# ruby --disable=gems,rubyopt warm_ruby.rb, with its socket to the launcher as descriptor 3 and
# the environment a move gets. The protocol is warm_python.py's, but for one thing: a move's end
# is always the end of its process (ENDED once it is reaped).
#
# Nothing a bot can write is loaded here (issue 39): HOME is the bot's writable scratch folder, and
# rubygems would prefer a `json` gem of a higher version in its user gem folder to the system's. So
# ruby starts without gems or RUBYOPT, RUBYLIB's folders leave the load path, and rubygems, then
# what ruby itself would load with it, come from the system's gem folders only.
#
# The bot runs in the same uid and namespace as this process, so this process keeps nothing a
# move could use: it is not dumpable, its socket is closed in the move, and it ignores the signals
# a bot could end it with (the launcher continues it after a SIGSTOP and starts a new one if it
# dies). Everything here is inside a module: the bot's file is evaluated in the top-level binding,
# which must hold no variable of ours.
$LOAD_PATH.replace($LOAD_PATH - ENV.fetch("RUBYLIB", "").split(File::PATH_SEPARATOR))
require "rubygems"
Gem.paths = {"GEM_HOME" => Gem.default_dir,
             "GEM_PATH" => (Gem.default_path - [Gem.user_dir]).join(File::PATH_SEPARATOR)}
%w[error_highlight did_you_mean].each do |feature|
  require feature
rescue LoadError
  nil
end
require "socket"
require "fiddle"
require "json"
require "set"

module GolWarmRuby
  # @LAUNCH_PROTOCOL@
  PR_SET_DUMPABLE = 4
  PRCTL = Fiddle::Function.new(Fiddle::Handle::DEFAULT["prctl"], [Fiddle::TYPE_INT, Fiddle::TYPE_LONG, Fiddle::TYPE_LONG,
                                                                   Fiddle::TYPE_LONG, Fiddle::TYPE_LONG], Fiddle::TYPE_INT)
  # A warm move's two sides in C (warm_move.c), from this script's folder.
  WARM = Fiddle.dlopen(File.join(__dir__, "gol-warm-move.so"))
  WARM_MOVE = Fiddle::Function.new(WARM["gol_warm_move"], [Fiddle::TYPE_INT, Fiddle::TYPE_VOIDP, Fiddle::TYPE_INT,
                                                           Fiddle::TYPE_INT, Fiddle::TYPE_INT, Fiddle::TYPE_VOIDP,
                                                           Fiddle::TYPE_INT], Fiddle::TYPE_VOIDP)
  WARM_ENDED = Fiddle::Function.new(WARM["gol_warm_ended"], [Fiddle::TYPE_INT] * (2 + MAX_FDS), Fiddle::TYPE_INT)
  # The signals a bot could end this process with, and what ruby does with each when it starts.
  TRAPPABLE = %w[HUP INT QUIT TERM USR1 USR2 ALRM PIPE TTIN TTOU XCPU XFSZ PROF WINCH]
  ORIGINAL = {}

  module_function

  # Exactly `size` bytes, or nil at end of file (IO#read itself reads until it has them).
  def read_exact(sock, size)
    data = sock.read(size)
    data if data&.bytesize == size
  end

  # One request: its header as it came and its fields, its descriptors (IOs) and strings; nil at
  # end of file.
  def receive(sock)
    head, _, _, *controls = sock.recvmsg(REQUEST_SIZE, 0, nil, scm_rights: true)
    return nil if head.nil? || head.empty?
    ios = controls.flat_map { |c| c.cmsg_is?(:SOCKET, :RIGHTS) ? c.unix_rights : [] }
    rest = read_exact(sock, REQUEST_SIZE - head.bytesize)
    return nil if rest.nil?
    head += rest
    fields = head.unpack(REQUEST)
    strings = read_exact(sock, fields[REQUEST_STRINGS_BYTES])
    return nil if strings.nil?
    [head, fields, ios, strings.split("\0", -1)[0...-1] || []]
  end

  def reply(sock, kind, value)
    sock.write([kind, value, 0].pack(REPLY))
  end

  # The move's process: set up as the launcher sets up any move (warm_move.c, which says STARTED
  # first, before any of the bot's code runs), then the bot's file as main.
  def become_move(sock, request, started_with)
    head, fields, ios, strings = request
    stdin = (fields[REQUEST_FLAGS] & STDIN_FLAG) != 0 ? ios[2].fileno : -1
    # Descriptors are closed here, not by gol_warm_move: ruby has pipes of its own.
    failed = WARM_MOVE.call(sock.fileno, head, stdin, ios[0].fileno, ios[1].fileno, strings[0], 0)
    unless failed.null?
      # As the launcher reports a failed start (the runner's "could not start").
      $stderr.syswrite("could not start the move in the warm ruby: #{failed}: " \
                       "#{SystemCallError.new(nil, Fiddle.last_error).message}\n")
      exit!(127)
    end
    sock.close
    ios.each(&:close)
    argc, envc = fields[REQUEST_ARGC], fields[REQUEST_ENVC]
    # The interpreter was started with the first request's environment, as a cold start would
    # be: what ruby has then is what the move gets. Another environment is set as it is.
    env = strings[2 + argc, envc]
    ENV.replace(env.to_h { |e| e.split("=", 2) }) unless env == started_with
    ORIGINAL.each { |name, handler| Signal.trap(name, handler) }
    argv = strings[2, argc]
    run_bot(argv[1], argv[2..])
  end

  # The bot's file is there but is not a regular file: what it is instead.
  class NotRegular < StandardError; end
  KINDS = {"fifo" => "a FIFO", "socket" => "a socket", "characterSpecial" => "a character device",
           "blockSpecial" => "a block device", "directory" => "a folder"}.freeze

  # The bot's file, opened without waiting and read only when it is a regular file: a FIFO put in
  # its place (where a bot may write its folder) would hold the move until its time limit, where
  # ruby itself would wait for a writer.
  def read_source(file)
    File.open(file, File::RDONLY | File::NONBLOCK) do |f|
      kind = f.stat.ftype
      raise NotRegular, "it is #{KINDS.fetch(kind, kind)}, not a regular file" unless kind == "file"
      f.read
    end
  end

  # `ruby FILE ARGS`: FILE evaluated as the main program, in the top-level binding.
  def run_bot(file, args)
    source = begin
      read_source(file)
    rescue NotRegular => e
      # ruby itself would wait for a writer; a move that cannot run says why instead.
      $stderr.write("ruby: #{e.message} -- #{file} (LoadError)\n")
      $stderr.flush
      exit!(1)
    rescue SystemCallError => e
      $stderr.write("ruby: #{e.message.sub(/ @ \w+/, '')} -- #{file} (LoadError)\n")
      $stderr.flush
      exit!(1)
    end
    $0 = file
    ARGV.replace(args)
    # ruby prints an uncaught exception after the at_exit handlers have run: this one, registered
    # before any of the bot's, runs after them all.
    uncaught = nil
    at_exit { $stderr.write(error_text(uncaught)) if uncaught }
    begin
      TOPLEVEL_BINDING.eval(source, file, 1)
    rescue SystemExit, SignalException
      raise
    rescue Exception => e
      # As ruby prints it, without this file's frames.
      e.set_backtrace(e.backtrace.reject { |line| line.start_with?(__FILE__) }) if e.backtrace
      uncaught = e
      exit(1)
    end
    exit(0)
  end

  # An uncaught exception as ruby prints it; a syntax error in the main file is its message alone.
  def error_text(error)
    return "#{error.message.chomp}\n" if error.is_a?(SyntaxError) && error.backtrace.to_a.empty?
    error.full_message(highlight: false, order: :top)
  end

  # Each request is read here and forked, as warm_python.py's serve: the move's process says it
  # started (no time: the launcher's clock times the move), sets itself up and becomes the move;
  # this one says how it ended once it is reaped.
  def serve(sock)
    started_with = nil
    loop do
      request = receive(sock)
      exit!(0) if request.nil?
      _, fields, ios, strings = request
      started_with ||= strings[2 + fields[REQUEST_ARGC], fields[REQUEST_ENVC]]
      begin
        move = fork { become_move(sock, request, started_with) }
      rescue SystemCallError => e
        ios.each(&:close)
        reply(sock, FAILED, e.errno)
        next
      end
      # gol_warm_ended closes these, waits for the move and says ENDED: their IOs forget them.
      ios.each { |io| io.autoclose = false }
      fds = ios.map(&:fileno) + [-1] * (MAX_FDS - ios.size)
      exit!(127) unless WARM_ENDED.call(CONTROL_FD, move, *fds).zero?
    end
  end

  def main
    sock = Socket.for_fd(CONTROL_FD)
    sock.close_on_exec = true
    exit!(127) unless PRCTL.call(PR_SET_DUMPABLE, 0, 0, 0, 0).zero?
    TRAPPABLE.each do |name|
      ORIGINAL[name] = Signal.trap(name, "IGNORE")
    rescue ArgumentError
      nil
    end
    GC.compact if GC.respond_to?(:compact)
    reply(sock, READY, Process.pid)
    serve(sock)
  end
end

GolWarmRuby.main
