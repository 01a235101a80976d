// bench/screen-instr.mjs AT_FRAME=1: ends the process at the first write to stdout that shows the footer's model
// (before it is written), without exit handlers. Wraps process.stdout's getter so that the stream is still
// made when the app first asks for it, as without the probe.
const desc = Object.getOwnPropertyDescriptor(process, "stdout");
Object.defineProperty(process, "stdout", {
	configurable: true,
	enumerable: desc.enumerable,
	get() {
		const stream = desc.get.call(process);
		if (!stream.__piFrameProbe) {
			stream.__piFrameProbe = true;
			const write = stream.write;
			stream.write = function (chunk, ...rest) {
				if (String(chunk).includes("fake-model")) process.reallyExit(0);
				return write.call(this, chunk, ...rest);
			};
		}
		return stream;
	},
});
