// Floor for the interactive first screen: bare Node taking the terminal
// (raw mode, alternate screen) and drawing an editor line and a footer that
// names the model, then waiting for input. The bench stops the clock when
// the footer shows in the tmux pane, as for the real apps.
//
//   node bench/floor/screen.mjs
const rows = process.stdout.rows || 24;
process.stdin.setRawMode?.(true);
process.stdin.resume();
process.stdin.on("data", (d) => {
	if (d[0] === 3 || d[0] === 4) process.exit(0);
});
process.stdout.write(
	`\x1b[?1049h\x1b[H\x1b[2J${"\n".repeat(Math.max(0, rows - 4))}${"─".repeat(40)}\n> \n${"─".repeat(40)}\n~/work  fake-model`,
);
