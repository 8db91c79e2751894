#!/usr/bin/env ruby
# A client for `runner serve` (docs/arena.md) that keeps its own board, in Ruby.
#
#     clients/arena_client.rb --host HOST --port PORT --name alice/Blocks [--games N]
#
# It plants one block (a 2x2 still life) a turn on free ground of its own half. At each game's end
# it prints the server's count beside its own and exits 1 if they ever differ. As a tlv bot
# (docs/protocol.md) its bot.json's run passes --host {host} --port {port} --width {width}
# --height {height}.
require "optparse"
require "socket"

NEIGHBOURS = [-1, 0, 1].product([-1, 0, 1]) - [[0, 0]]

# Live cells by [x, y] => 1 (mine) or 2 (the opponent's), with the contest's rules.
class Board
  attr_reader :width, :height, :cells

  def initialize(width, height)
    @width, @height, @cells = width, height, {}
  end

  # As the server places: off the board ignored, live cells skipped, repeats once.
  def place(cells, owner)
    cells.each do |x, y|
      @cells[[x, y]] = owner if x < @width && y < @height && !@cells.key?([x, y])
    end
  end

  def step
    counts = Hash.new { |h, k| h[k] = [0, 0] }
    @cells.each do |(x, y), owner|
      NEIGHBOURS.each do |dx, dy|
        nx, ny = x + dx, y + dy
        counts[[nx, ny]][owner - 1] += 1 if nx >= 0 && nx < @width && ny >= 0 && ny < @height
      end
    end
    following = {}
    counts.each do |cell, (n1, n2)|
      owner = @cells[cell]
      if owner
        following[cell] = owner if [2, 3].include?(owner == 1 ? n1 : n2)
      elsif n1 == 3 && n2.zero?
        following[cell] = 1
      elsif n2 == 3 && n1.zero?
        following[cell] = 2
      end
    end
    @cells = following
  end

  def count(owner)
    @cells.count { |_, o| o == owner }
  end
end

def send_message(sock, kind, value = "".b)
  sock.write(kind + [value.bytesize].pack("C") + value)
end

def read_exactly(sock, n)
  data = "".b
  while data.bytesize < n
    piece = sock.read(n - data.bytesize)
    raise IOError, "the server closed the connection" if piece.nil? || piece.empty?
    data << piece
  end
  data
end

def receive(sock)
  kind, length = read_exactly(sock, 2).unpack("aC")
  [kind, read_exactly(sock, length)]
end

# A block on free ground of my half, with a free border so it stands alone.
def my_move(board, first_seat, rng)
  half = board.width / 2
  50.times do
    x = rng.rand(1...(half - 2)) + (first_seat ? 0 : half)
    y = rng.rand(1...(board.height - 2))
    around = (-1..2).to_a.product((-1..2).to_a).map { |dx, dy| [x + dx, y + dy] }
    return [[x, y], [x + 1, y], [x, y + 1], [x + 1, y + 1]] if around.none? { |c| board.cells.key?(c) }
  end
  []
end

# One game; true when the server's B equals this client's own count.
def play(options, rng)
  TCPSocket.open(options[:host], options[:port]) do |sock|
    sock.setsockopt(Socket::IPPROTO_TCP, Socket::TCP_NODELAY, 1)
    send_message(sock, "I", options[:name].b)
    kind, value = receive(sock)
    raise IOError, "expected S, got #{kind.inspect}" unless kind == "S"
    warn "#{options[:name]}: playing #{value.force_encoding('UTF-8')}"
    board = Board.new(options[:width], options[:height])
    first_seat = nil
    loop do
      kind, value = receive(sock)
      case kind
      when "T"
        first_seat = true if first_seat.nil?
        cells = my_move(board, first_seat, rng)
        send_message(sock, "M", cells.flatten.pack("n*"))
        board.place(cells, 1)
      when "M"
        first_seat = false if first_seat.nil?
        board.place(value.unpack("n*").each_slice(2).to_a, 2)
      when "G"
        board.step
      when "B"
        own, other = value.unpack("NN")
        mine = [board.count(1), board.count(2)]
        puts "#{options[:name]}: B #{own} #{other}, own count #{mine[0]} #{mine[1]}"
        $stdout.flush
        return [own, other] == mine
      else
        raise IOError, "unexpected message #{kind.inspect}"
      end
    end
  end
end

options = { host: "127.0.0.1", width: 1024, height: 1024, games: 1, seed: 1 }
OptionParser.new do |o|
  o.on("--host HOST") { |v| options[:host] = v }
  o.on("--port PORT", Integer) { |v| options[:port] = v }
  o.on("--name NAME", "name/bot, and ' SECRET' when the arena has keys") { |v| options[:name] = v }
  o.on("--width W", Integer) { |v| options[:width] = v }
  o.on("--height H", Integer) { |v| options[:height] = v }
  o.on("--games N", Integer) { |v| options[:games] = v }
  o.on("--seed S", Integer) { |v| options[:seed] = v }
end.parse!
abort "--port and --name are required" unless options[:port] && options[:name]
rng = Random.new(options[:seed])
exact = (1..options[:games]).map { play(options, rng) }.all?
exit(exact ? 0 : 1)
