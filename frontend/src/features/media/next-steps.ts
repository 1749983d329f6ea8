/** The Next Steps list under a generated script: turning it into a video with everyday tools. */
export const NEXT_STEPS = [
  {
    title: 'Check the script',
    text: 'Read the narration aloud against the timings, and check every price, promise and contact detail before anything is recorded.',
  },
  {
    title: 'Record the visuals',
    text:
      'Follow the Visual column. For a website demo, record the screen with a screen recorder such as OBS Studio, Loom, ' +
      'the Xbox Game Bar on Windows or Shift-Command-5 on a Mac, at 1920 × 1080 with notifications turned off.',
  },
  {
    title: 'Record the voice-over',
    text:
      'Read the narration in a quiet room with a USB or headset microphone, one scene at a time, or use a text-to-speech ' +
      'voice. Keep each scene within its time.',
  },
  {
    title: 'Edit it together',
    text:
      'Put the footage and voice-over into a video editor such as Clipchamp, iMovie, DaVinci Resolve or CapCut. Add the ' +
      'on-screen text as titles, the practice logo, and quiet background music.',
  },
  {
    title: 'Add captions',
    text:
      'Most social video is watched without sound: add subtitles from the narration (most editors generate them) and ' +
      'export an .srt file for YouTube and LinkedIn.',
  },
  {
    title: 'Export and publish',
    text:
      'Export as MP4 in 1080p, and a square or vertical cut for social media. Put it on the website, YouTube and ' +
      'LinkedIn, and link it in client e-mails.',
  },
  {
    title: 'Or use an AI video tool',
    text:
      'Tools such as Synthesia, HeyGen or Pictory turn a script into a video with a presenter or stock footage: paste the ' +
      'narration scene by scene.',
  },
] as const;
