/**
 * The Porpoise mark and name, drawn inline so that the name takes the text colour of the
 * scheme (docs/product.md section 12: dark colours) while the mark keeps its blue tile.
 */
export function Logo({ className }: { className?: string }) {
  return (
    <svg
      className={className ?? 'logo'}
      role="img"
      aria-label="Porpoise"
      xmlns="http://www.w3.org/2000/svg"
      width="132"
      height="32"
      viewBox="0 0 132 32"
    >
      <rect width="32" height="32" rx="8" fill="#0969da" />
      <g transform="translate(0.5 -1.2)">
        <g fill="#ffffff">
          <path d="M6.5 23.5C9 16.5 15 11.5 21.5 11.5C25 11.5 27.5 13.2 28 15.5C26 16.4 23.5 16.7 21 17C16 17.8 11 20.3 8.5 24.5Z" />
          <path d="M13.2 13.6C14 11.8 14.8 10.2 15.9 8.6C16.6 10.4 17.3 11.4 18.6 12.1Z" />
          <path d="M7.8 23C6.2 22.4 4.6 21.8 3 21.3C3.8 23.4 5 25 6.5 25.9C7 27.2 7.8 28.4 9 29.3C9.4 27.4 9.3 25.6 8.9 24Z" />
        </g>
        <circle cx="24.6" cy="13.9" r="0.95" fill="#0969da" />
      </g>
      <text
        x="40"
        y="22.5"
        fontFamily="-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
        fontSize="19"
        fontWeight="700"
        fill="currentColor"
        letterSpacing="-0.3"
      >
        Porpoise
      </text>
    </svg>
  );
}
