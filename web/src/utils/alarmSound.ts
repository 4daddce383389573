/**
 * A short two-tone alarm made with the Web Audio API (no sound file to ship or to fail loading).
 * Browsers may refuse audio before the first user gesture; then the alarm is silent, not an error.
 */
export function playAlarmSound(): void {
  const AudioContextClass = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!AudioContextClass) return;
  try {
    const context = new AudioContextClass();
    const gain = context.createGain();
    gain.gain.value = 0.15;
    gain.connect(context.destination);
    [880, 660, 880].forEach((frequency, i) => {
      const tone = context.createOscillator();
      tone.type = 'square';
      tone.frequency.value = frequency;
      tone.connect(gain);
      tone.start(context.currentTime + i * 0.25);
      tone.stop(context.currentTime + i * 0.25 + 0.2);
    });
    window.setTimeout(() => void context.close(), 1200);
  } catch {
    // No audio device, or autoplay refused: the visual warning still shows.
  }
}
