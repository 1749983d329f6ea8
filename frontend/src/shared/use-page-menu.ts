import { useState, type Dispatch, type SetStateAction } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * A narrow screen's menu (a disclosure) that closes when the page changes: the public site's and the client
 * portal's layouts. Returns the open state and its setter.
 */
export function usePageMenu(): [boolean, Dispatch<SetStateAction<boolean>>] {
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuPath, setMenuPath] = useState(location.pathname);
  if (menuPath !== location.pathname) {
    setMenuPath(location.pathname);
    setMenuOpen(false);
  }
  return [menuOpen, setMenuOpen];
}
