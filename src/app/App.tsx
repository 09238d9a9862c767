import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { queryClient } from './api/queryClient';
import { router } from './routing/router';
import { ErrorBoundary } from './shell/ErrorBoundary';
import { ErrorDialog } from './shell/ErrorDialog';
import { Toaster } from './ui/Toaster';
import { TooltipProvider } from './ui/Tooltip';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider delayDuration={300}>
        <ErrorBoundary>
          <RouterProvider router={router} />
        </ErrorBoundary>
        <Toaster />
        <ErrorDialog />
      </TooltipProvider>
    </QueryClientProvider>
  );
}
